import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { In, type DataSource, type Repository } from 'typeorm';
import { UserEntity, type UserRole } from './user.entity.js';

/** What a credential needs of its user: never the password hash. */
export interface UserIdentity {
  id: number;
  email: string;
  role: UserRole;
  disabled: boolean;
}

export interface NewUserRow {
  email: string;
  name: string | null;
  role: UserRole;
  passwordHash: string;
}

/** The users table. Unique violations (email) reach the caller, which names the status. */
@Injectable()
export class UserRepository {
  private readonly rows: Repository<UserEntity>;

  constructor(@InjectDataSource() dataSource: DataSource) {
    this.rows = dataSource.getRepository(UserEntity);
  }

  findById(id: number): Promise<UserEntity | null> {
    return this.rows.findOneBy({ id });
  }

  /** The user without the password hash (every authenticated request reads this). */
  async findIdentity(id: number): Promise<UserIdentity | null> {
    const user = await this.rows.findOne({
      where: { id },
      select: { id: true, email: true, role: true, disabledAt: true },
    });
    return user && { id: user.id, email: user.email, role: user.role, disabled: !!user.disabledAt };
  }

  /** `email` as stored (lower-cased). */
  findByEmail(email: string): Promise<UserEntity | null> {
    return this.rows.findOneBy({ email });
  }

  existsByEmail(email: string): Promise<boolean> {
    return this.rows.existsBy({ email });
  }

  /** Whether any user exists (an empty database has none). */
  hasAny(): Promise<boolean> {
    return this.rows.exists();
  }

  findByIds(ids: number[]): Promise<UserEntity[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.rows.findBy({ id: In(ids) });
  }

  /** The oldest admin (the CLI's default uploader). */
  async firstAdmin(): Promise<UserEntity | null> {
    const [admin] = await this.rows.find({
      where: { role: 'admin' },
      order: { id: 'ASC' },
      take: 1,
    });
    return admin ?? null;
  }

  async update(
    id: number,
    changes: Partial<Pick<UserEntity, 'name' | 'passwordHash' | 'role' | 'disabledAt'>>,
  ): Promise<void> {
    await this.rows.update({ id }, changes);
  }

  insert(row: NewUserRow): Promise<UserEntity> {
    return this.rows.save(this.rows.create({ ...row, disabledAt: null, createdAt: new Date() }));
  }
}
