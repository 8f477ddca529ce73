import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CartLineEntity } from './cart-line.entity.js';
import { CartEntity } from './cart.entity.js';
import { CartsController } from './carts.controller.js';
import { CartsService } from './carts.service.js';
import { DefaultCartStore } from './default-cart.store.js';

/** Carts and their lines. The line endpoints (POST /v1/carts, /preview) build on CartsService. */
@Module({
  imports: [TypeOrmModule.forFeature([CartEntity, CartLineEntity])],
  controllers: [CartsController],
  providers: [CartsService, DefaultCartStore],
  exports: [CartsService],
})
export class CartsModule {}
