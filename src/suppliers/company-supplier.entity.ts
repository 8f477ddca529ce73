import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A buyer (company) purchases from a supplier: its users may configure the supplier's models. */
@Entity('company_suppliers')
export class CompanySupplierEntity {
  @PrimaryColumn({ type: 'integer' })
  companyId: number;

  @PrimaryColumn({ type: 'integer' })
  supplierId: number;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
