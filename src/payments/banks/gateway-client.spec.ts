import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BankUnavailableError, ChargeRequest, withDeadline } from './bank';
import { BankGatewayClient } from './gateway-client';
import { BankSimulator, normalOutcome, startBankSimulator } from './simulator/bank-simulator';

describe('bank simulator rules', () => {
  it.each([
    ['22229001', undefined, 'declined'],
    ['22229002', undefined, 'hang'],
    ['22229003', undefined, 'pending'],
    ['22222222', undefined, 'completed'],
    ['22222222', '0000', 'declined'],
    ['22222222', '12', 'declined'],
    ['22222222', '1234', 'completed'],
  ])('answers %s with pass code %j: %s', (phone, passCode, expected) => {
    expect(normalOutcome(phone, passCode)).toBe(expected);
  });
});

describe('gateway adapter against the bank simulator', () => {
  let sim: BankSimulator;
  const charge = (reference: string, phoneNumber = '22222222'): ChargeRequest => ({
    reference,
    amount: 100,
    phoneNumber,
    description: 'order',
  });

  beforeAll(async () => {
    sim = await startBankSimulator({ apiKey: 'gateway-key' });
  });
  beforeEach(() => sim.reset());
  afterAll(() => sim.close());

  it('charges once per reference: a replayed charge returns the first answer', async () => {
    const bank = new BankGatewayClient(sim.url, 'gateway-key');
    const first = await withDeadline(2000, (s) => bank.charge(charge('ref-1'), s));
    const again = await withDeadline(2000, (s) => bank.charge(charge('ref-1'), s));
    expect(first).toEqual(again);
    expect(sim.stats()).toMatchObject({ chargeRequests: 2, charges: 1 });
  });

  it("tells a wrong pass code (the gateway's code wrong_pass_code) from another refusal", async () => {
    const bank = new BankGatewayClient(sim.url, 'gateway-key');
    expect(
      await withDeadline(2000, (s) => bank.charge({ ...charge('ref-pc'), passCode: '0000' }, s)),
    ).toEqual({ status: 'declined', reason: 'wrong pass code', wrongPassCode: true });
    expect(await withDeadline(2000, (s) => bank.charge(charge('ref-pc2', '22229001'), s))).toEqual({
      status: 'declined',
      reason: 'declined',
    });
  });

  it('reads the status of a known charge, and unknown for a reference the bank never received', async () => {
    const bank = new BankGatewayClient(sim.url, 'gateway-key');
    await withDeadline(2000, (s) => bank.charge(charge('ref-2', '22229003'), s));
    expect(
      await withDeadline(2000, (s) => bank.status({ reference: 'ref-2', phoneNumber: '' }, s)),
    ).toMatchObject({ status: 'pending' });
    expect(await withDeadline(2000, (s) => bank.status({ reference: 'nope', phoneNumber: '' }, s))).toEqual({
      status: 'unknown',
    });
  });

  it('treats a refused API key (4xx) as a decline and a 5xx as the bank being unavailable', async () => {
    const wrongKey = new BankGatewayClient(sim.url, 'other');
    expect(await withDeadline(2000, (s) => wrongKey.charge(charge('ref-3'), s))).toMatchObject({
      status: 'declined',
    });
    sim.setMode('error');
    const bank = new BankGatewayClient(sim.url, 'gateway-key');
    await expect(withDeadline(2000, (s) => bank.charge(charge('ref-4'), s))).rejects.toMatchObject({
      kind: 'error',
    });
  });

  it('gives up with a time-out when the bank hangs', async () => {
    sim.setMode('hang');
    const bank = new BankGatewayClient(sim.url, 'gateway-key');
    const call = withDeadline(100, (s) => bank.charge(charge('ref-5'), s));
    await expect(call).rejects.toBeInstanceOf(BankUnavailableError);
    await expect(call).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('fails to connect to a bank that is down', async () => {
    const bank = new BankGatewayClient('http://127.0.0.1:9', 'k');
    await expect(withDeadline(2000, (s) => bank.charge(charge('ref-6'), s))).rejects.toMatchObject({
      kind: 'error',
    });
  });
});

describe('one gateway client for charges, refunds and transfers', () => {
  let sim: BankSimulator;
  beforeAll(async () => {
    sim = await startBankSimulator({ apiKey: 'gateway-key' });
  });
  afterAll(() => sim.close());

  it('charges, refunds the charge and sends a transfer through the same client', async () => {
    const client = new BankGatewayClient(sim.url, 'gateway-key');
    const charged = await withDeadline(2000, (s) =>
      client.charge({ reference: 'c-1', amount: 100, phoneNumber: '22222222', description: 'order' }, s),
    );
    expect(charged).toMatchObject({ status: 'completed' });
    const refund = { reference: 'r-1', chargeReference: 'c-1', amount: 40, phoneNumber: '22222222' };
    expect(await withDeadline(2000, (s) => client.refund(refund, s))).toMatchObject({ status: 'succeeded' });
    expect(await withDeadline(2000, (s) => client.refundStatus(refund, s))).toMatchObject({
      status: 'succeeded',
    });
    const transfer = {
      reference: 't-1',
      amount: 60,
      bank: 'BNM',
      holderName: 'Boutique',
      iban: 'MR1300020001010000123456753',
      description: 'payout',
    };
    expect(await withDeadline(2000, (s) => client.transfer(transfer, s))).toMatchObject({ status: 'paid' });
    expect(sim.stats()).toMatchObject({ charges: 1, refunds: 1, transfers: 1 });
  });
});

describe("the gateway's answer, read one way for every operation", () => {
  let server: Server;
  let url: string;
  /** What the fake gateway answers to any call. */
  let answer: object;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const operations: Record<
    'charge' | 'refund' | 'transfer',
    (c: BankGatewayClient, s: AbortSignal) => Promise<unknown>
  > = {
    charge: (c: BankGatewayClient, s: AbortSignal) =>
      c.charge({ reference: 'x-1', amount: 1, phoneNumber: '22222222', description: 'd' }, s),
    refund: (c: BankGatewayClient, s: AbortSignal) =>
      c.refund({ reference: 'x-1', chargeReference: 'c', amount: 1, phoneNumber: '22222222' }, s),
    transfer: (c: BankGatewayClient, s: AbortSignal) =>
      c.transfer({ reference: 'x-1', amount: 1, bank: 'B', holderName: 'H', iban: 'I', description: 'd' }, s),
  };

  it.each(Object.keys(operations) as (keyof typeof operations)[])(
    'refuses, for a %s, an answer about another reference or with a status not of the operation',
    async (operation) => {
      const client = new BankGatewayClient(url);
      const call = () => withDeadline(2000, (s) => operations[operation](client, s));
      answer = { reference: 'another', status: 'pending' };
      await expect(call()).rejects.toMatchObject({ kind: 'error', message: 'unexpected answer (HTTP 200)' });
      answer = { reference: 'x-1', status: 'settled' };
      await expect(call()).rejects.toMatchObject({
        kind: 'error',
        message: `unexpected ${operation} status`,
      });
      answer = {
        reference: 'x-1',
        status: operation === 'transfer' ? 'in_transit' : 'pending',
        bankReference: 'b'.repeat(300),
      };
      const pending = (await call()) as { bankReference: string };
      expect(pending.bankReference).toHaveLength(200);
    },
  );
});
