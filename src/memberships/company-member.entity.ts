import { Column, Entity, PrimaryColumn } from 'typeorm';

@Entity('company_members')
export class CompanyMemberEntity {
  @PrimaryColumn({ type: 'integer' })
  companyId: number;

  @PrimaryColumn({ type: 'integer' })
  userId: number;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
