import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/**
 * An invitation into a company, addressed to an email (whether or not an account has it:
 * the inviter learns nothing). The user who has that email sees and accepts it.
 */
@Entity('company_invitations')
export class CompanyInvitationEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'integer' })
  companyId: number;

  /** Lower-cased, as users' emails are stored. */
  @Column({ type: 'varchar', length: 320 })
  email: string;

  @Column({ type: 'integer', nullable: true })
  invitedById: number | null;

  @Column({ type: Date, nullable: true })
  acceptedAt: Date | null;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
