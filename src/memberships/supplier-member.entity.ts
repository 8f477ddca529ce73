import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('supplier_members')
export class SupplierMemberEntity {
  @PrimaryColumn({ type: 'integer' })
  supplierId: number;

  @PrimaryColumn({ type: 'integer' })
  userId: number;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
