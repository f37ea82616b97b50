import { Module } from '@nestjs/common';
import { PricesModule } from '../prices/prices.module';
import { ProductsController } from './products.controller';
import { ProductsOfPrices } from './products-of-prices';
import { ProductsRepository } from './products.repository';
import { ProductsService } from './products.service';

@Module({
  imports: [PricesModule],
  controllers: [ProductsController],
  providers: [ProductsService, ProductsRepository, ProductsOfPrices],
  exports: [ProductsService, ProductsRepository],
})
export class ProductsModule {}
