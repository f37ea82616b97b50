import { Module } from '@nestjs/common';
import { PriceProducts } from './price-products';
import { PricesController } from './prices.controller';
import { PricesRepository } from './prices.repository';
import { PricesService } from './prices.service';

@Module({
  controllers: [PricesController],
  providers: [PricesService, PricesRepository, PriceProducts],
  exports: [PricesService, PricesRepository, PriceProducts],
})
export class PricesModule {}
