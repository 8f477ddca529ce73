import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ModelsModule } from '../models/models.module.js';
import { CartLinesController } from './cart-lines.controller.js';
import { CartLinesService } from './cart-lines.service.js';
import { CartLineEntity } from './cart-line.entity.js';
import { CartEntity } from './cart.entity.js';
import { CartsController } from './carts.controller.js';
import { CartsService } from './carts.service.js';
import { DefaultCartStore } from './default-cart.store.js';

/** Carts and their lines: configurations evaluated by the engine against a model's compiled version. */
@Module({
  imports: [TypeOrmModule.forFeature([CartEntity, CartLineEntity]), ModelsModule],
  controllers: [CartsController, CartLinesController],
  providers: [CartsService, DefaultCartStore, CartLinesService],
  exports: [CartsService],
})
export class CartsModule {}
