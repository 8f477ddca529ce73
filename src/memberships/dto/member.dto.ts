import { ApiId, ApiTimestamp, ApiNullableString } from '../../common/swagger/schema-types.js';
import { ApiProperty } from '@nestjs/swagger';

import type { UserEntity } from '../../users/user.entity.js';
import { IsId } from '../../common/validation/is-id.decorator.js';

/** Body of POST /v1/companies/{id}/members and /v1/suppliers/{id}/members. */
export class AddMemberDto {
  @ApiId({
    example: 2,
    description:
      'The user who becomes a member (the example: the first user created after the admin)',
  })
  @IsId()
  user_id: number;
}

/** A member of a company or supplier: the user, and when they joined. */
export class MemberDto {
  @ApiId() user_id: number;
  @ApiProperty({
    nullable: true,
    type: String,
    example: 'anna@acme.example',
    description: 'Only on the caller’s own membership: no answer reveals another user’s email',
  })
  email: string | null;
  @ApiNullableString({ example: 'Anna Jansen' }) name: string | null;
  @ApiTimestamp({ description: 'When the membership began' })
  created_at: string;

  static from(user: UserEntity, joinedAt: Date, showEmail: boolean): MemberDto {
    return {
      user_id: user.id,
      email: showEmail ? user.email : null,
      name: user.name,
      created_at: joinedAt.toISOString(),
    };
  }
}
