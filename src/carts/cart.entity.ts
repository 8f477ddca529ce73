import { Column, Entity, PrimaryColumn } from 'typeorm';

/** A user's cart; at most one per user has `isDefault` (partial unique index). */
@Entity('carts')
export class CartEntity {
  /** UUID, exposed as `cart_id`. */
  @PrimaryColumn({ type: 'varchar', length: 36 })
  id: string;

  @Column({ type: 'integer' })
  userId: number;

  /** Set when the cart was created through an intent token. */
  @Column({ type: 'integer', nullable: true })
  companyId: number | null;

  @Column({ type: 'varchar', length: 200 })
  reference: string;

  @Column({ type: 'boolean', default: false })
  isDefault: boolean;

  /**
   * The cart an intent token of `companyId` adds to when the user's default cart is not
   * one it may use (at most one per user and company, partial unique index).
   */
  @Column({ type: 'boolean', default: false })
  isIntentCart: boolean = false;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
