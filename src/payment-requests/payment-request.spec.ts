import { fromJsonRow } from './payment-request';

describe('fromJsonRow', () => {
  it('reads a to_jsonb row of payment_requests: its times as Dates, null ones as null', () => {
    const request = fromJsonRow({
      id: 'a5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      environment_id: 'b5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      transaction_id: 'order-1',
      amount: 1500,
      phone_number: null,
      status: 'pending',
      paid_at: null,
      invoice_id: null,
      voided_at: '2026-11-29T00:40:00.123+00:00',
      payment_count: 1,
      application_fee: null,
      payment_link_id: null,
      test_clock_id: 'c5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      created_at: '2026-11-29T00:30:00.5+00:00',
      updated_at: '2026-11-29T00:31:00+00:00',
    });
    expect(request).toEqual({
      id: 'a5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      environmentId: 'b5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      transactionId: 'order-1',
      amount: 1500,
      phoneNumber: null,
      status: 'pending',
      paidAt: null,
      invoiceId: null,
      voidedAt: new Date('2026-11-29T00:40:00.123Z'),
      paymentCount: 1,
      applicationFee: null,
      paymentLinkId: null,
      testClockId: 'c5e1f0c6-2c1b-4c5e-9b61-0d1f0c2b3a4d',
      createdAt: new Date('2026-11-29T00:30:00.500Z'),
      updatedAt: new Date('2026-11-29T00:31:00Z'),
    });
  });
});
