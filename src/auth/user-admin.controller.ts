import { Body, Controller, Patch } from '@nestjs/common';
import { ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { IdParam } from '../common/http/id-param.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { UpdateMeDto, UpdateUserDto } from '../users/dto/update-user.dto.js';
import { UserDto } from '../users/dto/user.dto.js';
import { UserLifecycleService } from './user-lifecycle.service.js';

@ApiTags('users')
/** The PATCH routes of /v1/users: they end credentials, which this module owns. */
@Controller('v1/users')
export class UserAdminController {
  constructor(private readonly lifecycle: UserLifecycleService) {}

  /** Declared before `:id`, in the same controller, so that `me` is never taken for an id. */
  @Patch('me')
  @Auth('jwt')
  @ResponseMessage('User updated')
  @ApiOperation({ summary: 'Change one’s name, or password (with the current one)' })
  @ApiEnvelope(UserDto)
  @ApiErrors(400, 401, 403)
  updateMe(@Body() body: UpdateMeDto, @CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return this.lifecycle.updateMe(principal, body);
  }

  @Patch(':id')
  @Auth('jwt', { role: 'admin' })
  @ResponseMessage('User updated')
  @ApiOperation({ summary: 'Change a role, or disable a user (ends every session and token)' })
  @ApiParam({ name: 'id', description: 'User id' })
  @ApiEnvelope(UserDto)
  @ApiErrors(400, 401, 403, 404, 409)
  update(
    @IdParam() id: number,
    @Body() body: UpdateUserDto,
    @CurrentPrincipal() principal: Principal,
  ): Promise<UserDto> {
    return this.lifecycle.update(principal, id, body);
  }
}
