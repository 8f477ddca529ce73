import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** An evaluated configuration in a cart: the answers and the line the engine produced. */
@Entity('cart_lines')
export class CartLineEntity {
  @PrimaryGeneratedColumn()
  id: number;

  @Column({ type: 'varchar', length: 36 })
  cartId: string;

  @Column({ type: 'integer' })
  modelId: number;

  @Column({ type: 'integer' })
  versionNumber: number;

  @Column({ type: 'integer' })
  companyId: number;

  @Column({ type: 'varchar', length: 16, nullable: true })
  languageCode: string | null;

  /** The request's `questions` (answers), as given. */
  @Column({ type: 'simple-json' })
  answers: Record<string, unknown>;

  /** The evaluated cart line (docs/model-format.md, "The cart line"), without its id. */
  @Column({ type: 'simple-json' })
  line: Record<string, unknown>;

  /** `pricing.total` as a decimal string, so cart totals need no JSON parsing. */
  @Column({ type: 'varchar', length: 40 })
  total: string;

  @Column({ type: 'varchar', length: 3 })
  currency: string;

  /** 1 when added, +1 each time the line is replaced (reconfigured, moved): its ETag. */
  @Column({ type: 'integer', default: 1 })
  revision: number = 1;

  /** Set here, not by the database, so that SQLite keeps milliseconds too. */
  @Column({ type: Date })
  createdAt: Date = new Date();
}
