import { Body, Controller, Get, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../principal/auth.decorator.js';
import { CurrentPrincipal } from '../principal/current-principal.decorator.js';
import type { Principal } from '../principal/principal.js';
import { ApiEnvelope, ApiErrors } from '../common/swagger/api-envelope.decorator.js';
import { ResponseMessage } from '../common/envelope/response-message.decorator.js';
import { CreateUserDto, UserDto } from './dto/user.dto.js';
import { UsersService } from './users.service.js';

@ApiTags('users')
@Controller('v1/users')
export class UsersController {
  constructor(private readonly users: UsersService) {}

  @Post()
  @Auth('jwt', { role: 'admin' })
  @ResponseMessage('User created')
  @ApiOperation({ summary: 'Create a user (admins only)' })
  @ApiEnvelope(UserDto, { status: 201 })
  @ApiErrors(400, 401, 403, 409)
  create(@Body() body: CreateUserDto, @CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return this.users.create(principal, body);
  }

  @Get('me')
  @Auth('jwt')
  @ResponseMessage('User found')
  @ApiOperation({ summary: 'Who am I' })
  @ApiEnvelope(UserDto)
  @ApiErrors(401)
  me(@CurrentPrincipal() principal: Principal): Promise<UserDto> {
    return this.users.me(principal);
  }
}
