import { Module } from '@nestjs/common';
import { ModelsModule } from '../models/models.module.js';
import { CartLinesController } from './cart-lines.controller.js';
import { CartLinesService } from './cart-lines.service.js';
import { CartPageRepository } from './cart-page.repository.js';
import { CartRepository } from './cart.repository.js';
import { NewCartRepository } from './new-cart.repository.js';
import { CartSummaryRepository } from './cart-summary.repository.js';
import { CartsController } from './carts.controller.js';
import { CartsService } from './carts.service.js';
import { DefaultCarts } from './default-carts.service.js';
import { LineChangesController } from './line-changes.controller.js';
import { LineChangesService } from './line-changes.service.js';
import { LineConfigurator } from './line-configurator.service.js';
import { LineHeadRepository } from './line-head.repository.js';
import { ImpactService } from './recheck/impact.service.js';
import { ModelImpactController, RecheckController } from './recheck/recheck.controller.js';
import { RecheckService } from './recheck/recheck.service.js';
import { StoredLines } from './stored-lines.service.js';

/** Carts and their lines: configurations evaluated by the engine against a model's compiled version. */
@Module({
  imports: [ModelsModule],
  controllers: [
    CartsController,
    CartLinesController,
    LineChangesController,
    RecheckController,
    ModelImpactController,
  ],
  providers: [
    CartsService,
    DefaultCarts,
    CartLinesService,
    LineConfigurator,
    StoredLines,
    CartRepository,
    NewCartRepository,
    CartPageRepository,
    CartSummaryRepository,
    LineHeadRepository,
    LineChangesService,
    RecheckService,
    ImpactService,
  ],
  exports: [CartsService],
})
export class CartsModule {}
