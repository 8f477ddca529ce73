import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { SupplierEntity } from '../suppliers/supplier.entity.js';
import { ModelEntity } from './model.entity.js';

/**
 * Who may read and write a model (DESIGN.md, "Visibility"): readable by the supplier's
 * members, admins and members of companies linked to the supplier; writable by the
 * supplier's members and admins. A model the caller may not read is a 404.
 */
@Injectable()
export class ModelAccessService {
  constructor(
    @InjectRepository(ModelEntity) private readonly models: Repository<ModelEntity>,
    @InjectRepository(SupplierEntity) private readonly suppliers: Repository<SupplierEntity>,
    private readonly access: AccessService,
  ) {}

  async requireReadable(principal: Principal, modelId: number): Promise<ModelEntity> {
    const model = await this.models.findOneBy({ id: modelId });
    if (!model || !(await this.access.canReadSupplierModels(principal, model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    return model;
  }

  /** The supplier's members may change it; readers who may not get 403, anyone else 404. */
  async requireWritable(principal: Principal, modelId: number): Promise<ModelEntity> {
    const model = await this.models.findOneBy({ id: modelId });
    if (!model) throw ApiError.notFound('No model found');
    if (await this.access.isSupplierMember(principal, model.supplierId)) return model;
    if (!(await this.access.canReadSupplierModels(principal, model.supplierId))) {
      throw ApiError.notFound('No model found');
    }
    throw ApiError.forbidden("Only the supplier's members may change its models", [
      { code: 'not_a_member', message: 'You are not a member of this supplier' },
    ]);
  }

  /** The supplier's models are readable by the caller (404 otherwise, also when it does not exist). */
  async requireReadableSupplier(principal: Principal, supplierId: number): Promise<void> {
    const readable =
      (await this.suppliers.existsBy({ id: supplierId })) &&
      (await this.access.canReadSupplierModels(principal, supplierId));
    if (!readable) {
      throw ApiError.notFound('The supplier does not exist');
    }
  }
}
