import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity('companies')
export class CompanyEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'varchar', length: 200 })
  name: string;

  /** Unique across companies. */
  @Column({ type: 'varchar', length: 64 })
  vatNumber: string;

  @Column({ type: 'varchar', length: 64 })
  cocNumber: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  phoneNumber: string | null;

  @Column({ type: 'varchar', length: 500, nullable: true })
  website: string | null;

  @Column({ type: 'varchar', length: 200, nullable: true })
  contactPerson: string | null;

  @Column({ type: 'integer', nullable: true })
  createdById: number | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
