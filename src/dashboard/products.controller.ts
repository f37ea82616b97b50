import { ReadsReplica } from '../database/reads-replica';
import { Get, Param } from '@nestjs/common';
import { AppError } from '../common/errors/app-error';
import { Post } from '../common/http/routes';
import { PRICE_INTERVALS, PriceInterval } from '../prices/price';
import { PriceError } from '../prices/prices.errors';
import { PricesService } from '../prices/prices.service';
import { PRODUCT_LIMITS } from '../products/dto/product.dto';
import type { Product } from '../products/product';
import { ProductError } from '../products/products.errors';
import { ProductsService } from '../products/products.service';
import { DashboardError, dashboardError } from './dashboard.errors';
import { DashboardRenderer } from './dashboard.renderer';
import { DashboardPages, idOr404 } from './dashboard-pages';
import { Dash, DashboardRequest } from './dashboard-request';
import { fill } from './format';
import { parseAmount, parseChoice } from './forms';
import { pager, priceRow, productRow } from './presenters';

const PAGE_SIZE = 25;

type Errors = Record<string, string>;

interface ProductForm {
  name: string;
  description: string;
  errors: Errors;
}

interface PriceForm {
  /** The price edited; none: the form that adds one. */
  id?: string;
  amount: string;
  interval: string;
  replaceExisting?: boolean;
  errors: Errors;
}

/** The product form, checked as the API checks it (PRODUCT_LIMITS). */
function productForm(d: DashboardRequest): ProductForm {
  const name = d.field('name').trim();
  const description = d.field('description').trim();
  const errors: Errors = {};
  if (name.length < 1 || name.length > PRODUCT_LIMITS.name) errors.name = d.t.productNameRequired;
  if (description.length > PRODUCT_LIMITS.description) errors.description = d.t.descriptionTooLong;
  return { name, description, errors };
}

/** A price form: a whole amount from 1 MRU, and an interval (kept as it is when editing without one). */
function priceForm(
  d: DashboardRequest,
  id?: string,
): PriceForm & { parsed: { amount?: number; interval?: PriceInterval } } {
  const amountText = d.field('amount').trim();
  const amount = parseAmount(amountText);
  const interval = parseChoice(d.field('interval'), PRICE_INTERVALS);
  const errors: Errors = {};
  if (amount === undefined || amount < 1) errors.amount = d.t.invalidAmount;
  if (!interval) errors.interval = d.t.chooseInterval;
  return {
    id,
    amount: amountText,
    interval: d.field('interval'),
    replaceExisting: d.field('replaceExisting') === 'true',
    errors,
    parsed: { amount, interval },
  };
}

const noErrors = (form: { errors: Errors }) => Object.keys(form.errors).length === 0;

/**
 * Products of the session's environment and their prices (docs/billing.md): list, create, edit,
 * archive; add a price, change one in place or replace it, archive it. Prices are reached through
 * their product, so a price of the other environment's product is not found here.
 */
@DashboardPages()
export class DashboardProductsController {
  constructor(
    private readonly renderer: DashboardRenderer,
    private readonly products: ProductsService,
    private readonly prices: PricesService,
  ) {}

  @ReadsReplica('page')
  @Get('products')
  async list(@Dash() d: DashboardRequest): Promise<void> {
    await this.renderList(d, { name: '', description: '', errors: {} });
  }

  @Post('products')
  async create(@Dash() d: DashboardRequest): Promise<void> {
    const form = productForm(d);
    if (!noErrors(form)) return this.renderList(d, form);
    const created = await this.products.create(d.scope, {
      name: form.name,
      description: form.description || null,
    });
    d.page.redirect(`/dashboard/products/${created.id}?notice=productCreated`);
  }

  @Get('products/:id')
  async product(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const product = await this.productOrNotFoundPage(d, id);
    await this.renderProduct(d, product, {});
  }

  @Post('products/:id')
  async update(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const product = await this.productOrNotFoundPage(d, id);
    const form = productForm(d);
    if (!noErrors(form)) return this.renderProduct(d, product, { product: form });
    await this.notFoundAs404(() =>
      this.products.update(d.scope, product.id, { name: form.name, description: form.description || null }),
    );
    d.page.redirect(`/dashboard/products/${product.id}?notice=productSaved`);
  }

  /** Gone from the lists for good; its prices and existing subscriptions go on. */
  @Post('products/:id/archive')
  async archive(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    await this.notFoundAs404(() => this.products.archive(d.scope, idOr404(id)));
    d.page.redirect('/dashboard/products?notice=productArchived');
  }

  @Post('products/:id/prices')
  async addPrice(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const product = await this.productOrNotFoundPage(d, id);
    const form = priceForm(d);
    if (!noErrors(form)) return this.renderProduct(d, product, { newPrice: form });
    await this.notFoundAs404(() =>
      this.prices.create(d.scope, {
        productId: product.id,
        amount: form.parsed.amount!,
        interval: form.parsed.interval!,
      }),
    );
    d.page.redirect(`/dashboard/products/${product.id}?notice=priceAdded`);
  }

  /** In place (its subscriptions pay the new amount from their next invoice), or replaced by a new price. */
  @Post('prices/:id')
  async updatePrice(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const price = await this.priceOrNotFoundPage(d, id);
    const form = priceForm(d, price.id);
    if (!noErrors(form)) {
      const product = await this.productOrNotFoundPage(d, price.productId);
      return this.renderProduct(d, product, { priceEdit: form });
    }
    await this.notFoundAs404(() =>
      this.prices.update(d.scope, price.id, {
        amount: form.parsed.amount,
        interval: form.parsed.interval,
        replaceExisting: form.replaceExisting,
      }),
    );
    const notice = form.replaceExisting ? 'priceReplaced' : 'priceSaved';
    d.page.redirect(`/dashboard/products/${price.productId}?notice=${notice}`);
  }

  /** No longer offered; subscriptions already on it keep billing. */
  @Post('prices/:id/archive')
  async archivePrice(@Dash() d: DashboardRequest, @Param('id') id: string): Promise<void> {
    const price = await this.priceOrNotFoundPage(d, id);
    await this.notFoundAs404(() => this.prices.archive(d.scope, price.id));
    d.page.redirect(`/dashboard/products/${price.productId}?notice=priceArchived`);
  }

  /** An active product of the session's environment, or the 404 page. */
  private async productOrNotFoundPage(d: DashboardRequest, id: string): Promise<Product> {
    const product = await this.products.findActive(d.scope.environmentId, idOr404(id));
    if (!product) throw dashboardError(DashboardError.NotFound);
    return product;
  }

  /** An active price of an active product of the session's environment, or the 404 page. */
  private async priceOrNotFoundPage(d: DashboardRequest, id: string) {
    const price = await this.prices.findActive(d.scope.environmentId, idOr404(id));
    if (!price) throw dashboardError(DashboardError.NotFound);
    return price;
  }

  /** A product or price archived meanwhile is not found: the 404 page. */
  private async notFoundAs404<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (AppError.is(err, ProductError.NotFound, PriceError.NotFound, PriceError.ProductNotFound))
        throw dashboardError(DashboardError.NotFound);
      throw err;
    }
  }

  private async renderList(d: DashboardRequest, form: ProductForm): Promise<void> {
    const { t } = d;
    const page = await this.products.search(d.scope.environmentId, {
      after: d.query('after'),
      before: d.query('before'),
      limit: PAGE_SIZE,
    });
    const prices = await this.prices.activePricesOf(page.items.map((p) => p.id));
    this.renderer.render(d, 'products', t.productsTitle, {
      rows: page.items.map((p) =>
        productRow(
          d,
          p,
          prices.filter((pr) => pr.productId === p.id),
        ),
      ),
      form,
      pager: pager(d, '/dashboard/products', {}, page),
    });
  }

  private async renderProduct(
    d: DashboardRequest,
    product: Product,
    forms: { product?: ProductForm; newPrice?: PriceForm; priceEdit?: PriceForm },
  ): Promise<void> {
    const { t } = d;
    const prices = await this.prices.activePricesOf([product.id]);
    const intervals = (selected: string) =>
      PRICE_INTERVALS.map((i) => ({ value: i, label: t[`interval_${i}`], selected: i === selected }));
    const newPrice = forms.newPrice ?? { amount: '', interval: 'monthly', errors: {} };
    const here = `/dashboard/products/${product.id}`;
    this.renderer.render(d, 'product', fill(t.productTitle, { name: product.name }), {
      product: { ...productRow(d, product), action: here, archiveAction: `${here}/archive` },
      productForm: forms.product ?? {
        name: product.name,
        description: product.description ?? '',
        errors: {},
      },
      prices: prices.map((p) => {
        const edit = forms.priceEdit?.id === p.id ? forms.priceEdit : undefined;
        return {
          ...priceRow(d, p),
          form: {
            amount: edit?.amount ?? String(p.amount),
            intervals: intervals(edit?.interval ?? p.interval),
            replaceExisting: edit?.replaceExisting ?? false,
            errors: edit?.errors ?? {},
          },
        };
      }),
      newPrice: {
        action: `${here}/prices`,
        amount: newPrice.amount,
        intervals: intervals(newPrice.interval),
        errors: newPrice.errors,
      },
    });
  }
}
