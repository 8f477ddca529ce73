import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('suppliers')
export class SupplierEntity {
  @PrimaryGeneratedColumn()
  id: number;

  /** Unique across suppliers. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  @Column({ type: 'varchar', length: 500 })
  website: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  contactPerson: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phoneNumber: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  vatNumber: string | null;

  @Column({ type: 'varchar', length: 64, nullable: true })
  cocNumber: string | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
