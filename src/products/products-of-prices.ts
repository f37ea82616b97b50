import { Injectable, OnModuleInit } from '@nestjs/common';
import { PriceProducts } from '../prices/price-products';
import { productRows } from './products.fragments';

/** Gives prices, below products, the products' rows its statements check a price's product in. */
@Injectable()
export class ProductsOfPrices implements OnModuleInit {
  constructor(private readonly priceProducts: PriceProducts) {}

  onModuleInit(): void {
    this.priceProducts.register({ productRows });
  }
}
