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

  /**
   * Rows stored before snapshots: the evaluated line (older rows), or `{}` (rows evaluated
   * again on read, until their first read stores a snapshot). New rows store `{}`.
   */
  @Column({ type: 'simple-json' })
  line: Record<string, unknown>;

  /**
   * The line as evaluated at add time (docs/model-format.md "The cart line", without
   * `version_number`, which is a column): its JSON deflated, base64. Reads serve it as it
   * is; no engine runs and no engine upgrade changes it. Null on rows stored before.
   */
  @Column({ type: 'text', nullable: true })
  snapshot: string | null = null;

  /** The same line in the compact view. */
  @Column({ type: 'text', nullable: true })
  compactSnapshot: string | null = null;

  /** The engine version that evaluated the snapshot. */
  @Column({ type: 'varchar', length: 20, nullable: true })
  engineVersion: string | null = null;

  /** Whether the configuration was valid when stored (a line is only added valid). */
  @Column({ type: 'boolean', default: true })
  valid: boolean = true;

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
