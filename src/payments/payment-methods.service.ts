import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { notFound } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';
import { PaymentMethod } from './payment.entity';

@Injectable()
export class PaymentMethodsService {
  constructor(@InjectRepository(PaymentMethod) private readonly repo: Repository<PaymentMethod>) {}

  /** The bank apps enabled for the environment, in display order. */
  listEnabled(environmentId: string): Promise<PaymentMethod[]> {
    return this.repo.find({
      where: { environmentId, enabled: true },
      order: { position: 'ASC', name: 'ASC' },
    });
  }

  /** An enabled method of the environment, or 404 `Payment method not found`. */
  async findEnabled(environmentId: string, id: string): Promise<PaymentMethod> {
    const method = await this.repo.findOneBy({ id, environmentId, enabled: true });
    if (!method) throw notFound(Messages.paymentMethodNotFound);
    return method;
  }
}
