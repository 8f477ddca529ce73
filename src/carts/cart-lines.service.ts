import { HttpStatus, Injectable } from '@nestjs/common';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../principal/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { evaluateConfiguration, type Evaluation } from '../engine/index.js';
import { MetricsService } from '../metrics/metrics.service.js';
import { companyAssetUrl } from '../models/asset-urls.js';
import { ModelsService } from '../models/models.service.js';
import { CartRepository } from './cart.repository.js';
import { DefaultCarts } from './default-carts.service.js';
import type { AddCartLineDto, ConfigurationDto } from './dto/add-cart-line.dto.js';
import type { AddedCartLineDto, PreviewLineDto } from './dto/cart-line-result.dto.js';

/** What a configuration was evaluated against and what came out. */
interface Configured {
  modelId: number;
  versionNumber: number;
  evaluation: Evaluation;
}

/**
 * Turns a configuration into a cart line: access checks, evaluation with the model's
 * compiled current version (from the cache: no parsing per request), and storage.
 */
@Injectable()
export class CartLinesService {
  constructor(
    private readonly carts: CartRepository,
    private readonly defaults: DefaultCarts,
    private readonly models: ModelsService,
    private readonly access: AccessService,
    private readonly metrics: MetricsService,
  ) {}

  /** POST /v1/carts: an invalid configuration answers 401 (seed contract) and stores nothing. */
  async add(principal: Principal, input: AddCartLineDto): Promise<AddedCartLineDto> {
    const { modelId, versionNumber, evaluation } = await this.configure(principal, input);
    if (!evaluation.valid) {
      throw new ApiError(
        HttpStatus.UNAUTHORIZED,
        'The configuration is not valid',
        evaluation.errors,
      );
    }
    const cart = await this.defaults.resolveTargetCart(principal, input.cart_id);
    const pricing = evaluation.line.pricing;
    // Check and insert under the cart's lock: two lines in different currencies racing
    // into one cart must not both get in.
    const stored = await this.carts.withCartLocked(cart.id, async (locked) => {
      const mismatch = await this.defaults.lineProblems(
        cart,
        input.company_id,
        pricing.currency,
        locked,
      );
      if (mismatch.length > 0) {
        const companyMismatch = mismatch.some((p) => p.code === 'cart_company_mismatch');
        const status = companyMismatch ? HttpStatus.FORBIDDEN : HttpStatus.UNAUTHORIZED;
        throw new ApiError(status, 'The line cannot go into this cart', mismatch);
      }
      return locked.insertLine({
        cartId: cart.id,
        modelId,
        versionNumber,
        companyId: input.company_id,
        languageCode: input.language_code ?? null,
        answers: input.questions,
        line: evaluation.line as unknown as Record<string, unknown>,
        total: pricing.total,
        currency: pricing.currency,
      });
    });
    return {
      ...evaluation.line,
      id: stored.id,
      cart_id: cart.id,
      model_id: modelId,
      company_id: input.company_id,
      warnings: evaluation.warnings,
    };
  }

  /** POST /v1/carts/preview: the same evaluation, nothing stored. */
  async preview(principal: Principal, input: ConfigurationDto): Promise<PreviewLineDto> {
    const { evaluation } = await this.configure(principal, input);
    return {
      ...evaluation.line,
      id: null,
      valid: evaluation.valid,
      errors: evaluation.errors,
      warnings: evaluation.warnings,
    };
  }

  /** Evaluates against the model's compiled current version, once AccessService allows it. */
  private async configure(principal: Principal, input: ConfigurationDto): Promise<Configured> {
    const loaded = await this.access.requireConfigurable(
      principal,
      input.company_id,
      () =>
        this.models.loadCompiled(input.model_id).catch((error: unknown) => {
          if (error instanceof ApiError && error.getStatus() === HttpStatus.NOT_FOUND) return null;
          throw error;
        }),
      (found) => found.model,
    );
    const started = performance.now();
    const evaluation = evaluateConfiguration(loaded.compiled, {
      modelId: loaded.model.id,
      versionNumber: loaded.versionNumber,
      questions: input.questions,
      languageCode: input.language_code ?? null,
      // Company-scoped, so that whoever may use the line (an intent token too) may load them.
      assetUrl: (path) =>
        companyAssetUrl(input.company_id, loaded.model.id, loaded.versionNumber, path),
    });
    this.metrics.observeEvaluation(
      performance.now() - started,
      evaluation.valid ? 'valid' : 'invalid',
    );
    return { modelId: loaded.model.id, versionNumber: loaded.versionNumber, evaluation };
  }
}
