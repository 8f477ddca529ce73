import { Module } from '@nestjs/common';
import { PasswordService } from './password.service.js';
import { UserRepository } from './user.repository.js';
import { UsersController } from './users.controller.js';
import { UsersService } from './users.service.js';

/** Users: accounts, passwords, and the Principal a verified credential stands for. */
@Module({
  controllers: [UsersController],
  providers: [UsersService, UserRepository, PasswordService],
  exports: [UsersService],
})
export class UsersModule {}
