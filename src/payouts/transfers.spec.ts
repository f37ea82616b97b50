import { BankUnavailableError, withDeadline } from '../payments/banks/bank';
import { BankSimulator, startBankSimulator } from '../payments/banks/simulator/bank-simulator';
import type { TransferRequest } from '../payments/banks/bank';
import { BankGatewayClient } from '../payments/banks/gateway-client';
import { timeOrderedId } from '../database/time-ordered-id';
import { SandboxTransfers } from './transfers';

const transfer = (reference: string, iban = 'MR1300020001010000123456753'): TransferRequest => ({
  reference,
  amount: 5000,
  bank: 'BNM',
  holderName: 'Boutique Nouakchott',
  iban,
  description: `Khoums payout ${reference}`,
});

describe('Sandbox transfers', () => {
  it('fail for an IBAN ending in 0001 and are paid at once otherwise', async () => {
    const sandbox = new SandboxTransfers();
    expect(await sandbox.transfer(transfer('p1', 'MR1300020001010000123450001'))).toEqual({
      status: 'failed',
      reason: 'rejected by the sandbox bank',
    });
    expect(await sandbox.transfer(transfer('p2'))).toMatchObject({ status: 'paid' });
  });

  it('give each payout its own bank reference, even two made in the same millisecond, and the same one when asked again', async () => {
    const sandbox = new SandboxTransfers();
    const now = Date.now();
    const [a, b] = [timeOrderedId(now), timeOrderedId(now)];
    expect(a.slice(0, 8)).toBe(b.slice(0, 8));
    const first = await sandbox.transfer(transfer(a));
    const second = await sandbox.transfer(transfer(b));
    expect(first).toMatchObject({
      status: 'paid',
      bankReference: expect.stringMatching(/^sbx_payout_[0-9a-f]{32}$/),
    });
    expect(second).toMatchObject({ status: 'paid' });
    expect(
      first.status === 'paid' && second.status === 'paid' && first.bankReference !== second.bankReference,
    ).toBe(true);
    expect(await sandbox.transfer(transfer(a))).toEqual(first);
  });
});

describe('the transfer operation against the bank simulator', () => {
  let sim: BankSimulator;
  const gateway = () => new BankGatewayClient(sim.url, 'gateway-key');
  const send = (request: TransferRequest, timeoutMs = 2000) =>
    withDeadline(timeoutMs, (s) => gateway().transfer(request, s));

  beforeAll(async () => {
    sim = await startBankSimulator({ apiKey: 'gateway-key' });
  });
  beforeEach(() => sim.reset());
  afterAll(() => sim.close());

  it('sends a transfer once per reference: asking again answers its current state', async () => {
    const first = await send(transfer('t-1'));
    expect(first).toMatchObject({ status: 'paid' });
    expect(await send(transfer('t-1'))).toEqual(first);
    expect(sim.stats()).toMatchObject({ transferRequests: 2, transfers: 1 });
    expect(sim.transfer('t-1')).toMatchObject({ amount: 5000, iban: 'MR1300020001010000123456753' });
  });

  it('fails a transfer to an IBAN ending in 0001, as the Sandbox does', async () => {
    expect(await send(transfer('t-2', 'MR1300020001010000123450001'))).toEqual({
      status: 'failed',
      reason: 'account closed',
    });
  });

  it('answers in_transit until the bank settles it', async () => {
    sim.setMode('pending');
    expect(await send(transfer('t-3'))).toMatchObject({ status: 'in_transit' });
    expect(await send(transfer('t-3'))).toMatchObject({ status: 'in_transit' });
    sim.settleTransfer('t-3', 'paid');
    expect(await send(transfer('t-3'))).toMatchObject({ status: 'paid' });
  });

  it('treats a 5xx and silence as the bank being unavailable, and a 4xx as a refusal', async () => {
    sim.setMode('error');
    await expect(send(transfer('t-4'))).rejects.toMatchObject({ kind: 'error' });
    sim.setMode('hang');
    await expect(send(transfer('t-5'), 200)).rejects.toBeInstanceOf(BankUnavailableError);
    sim.setMode('normal');
    const unauthorised = new BankGatewayClient(sim.url, 'wrong-key');
    expect(await withDeadline(2000, (s) => unauthorised.transfer(transfer('t-6'), s))).toMatchObject({
      status: 'failed',
    });
    expect(sim.stats().transfers).toBe(0);
  });
});
