import { BankUnavailableError, ChargeRequest, withDeadline } from './bank';
import { GatewayBank } from './gateway-bank';
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
    const bank = new GatewayBank(sim.url, 'gateway-key');
    const first = await withDeadline(2000, (s) => bank.charge(charge('ref-1'), s));
    const again = await withDeadline(2000, (s) => bank.charge(charge('ref-1'), s));
    expect(first).toEqual(again);
    expect(sim.stats()).toMatchObject({ chargeRequests: 2, charges: 1 });
  });

  it("tells a wrong pass code (the gateway's code wrong_pass_code) from another refusal", async () => {
    const bank = new GatewayBank(sim.url, 'gateway-key');
    expect(
      await withDeadline(2000, (s) => bank.charge({ ...charge('ref-pc'), passCode: '0000' }, s)),
    ).toEqual({ status: 'declined', reason: 'wrong pass code', wrongPassCode: true });
    expect(await withDeadline(2000, (s) => bank.charge(charge('ref-pc2', '22229001'), s))).toEqual({
      status: 'declined',
      reason: 'declined',
    });
  });

  it('reads the status of a known charge, and unknown for a reference the bank never received', async () => {
    const bank = new GatewayBank(sim.url, 'gateway-key');
    await withDeadline(2000, (s) => bank.charge(charge('ref-2', '22229003'), s));
    expect(
      await withDeadline(2000, (s) => bank.status({ reference: 'ref-2', phoneNumber: '' }, s)),
    ).toMatchObject({ status: 'pending' });
    expect(await withDeadline(2000, (s) => bank.status({ reference: 'nope', phoneNumber: '' }, s))).toEqual({
      status: 'unknown',
    });
  });

  it('treats a refused API key (4xx) as a decline and a 5xx as the bank being unavailable', async () => {
    const wrongKey = new GatewayBank(sim.url, 'other');
    expect(await withDeadline(2000, (s) => wrongKey.charge(charge('ref-3'), s))).toMatchObject({
      status: 'declined',
    });
    sim.setMode('error');
    const bank = new GatewayBank(sim.url, 'gateway-key');
    await expect(withDeadline(2000, (s) => bank.charge(charge('ref-4'), s))).rejects.toMatchObject({
      kind: 'error',
    });
  });

  it('gives up with a time-out when the bank hangs', async () => {
    sim.setMode('hang');
    const bank = new GatewayBank(sim.url, 'gateway-key');
    const call = withDeadline(100, (s) => bank.charge(charge('ref-5'), s));
    await expect(call).rejects.toBeInstanceOf(BankUnavailableError);
    await expect(call).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('fails to connect to a bank that is down', async () => {
    const bank = new GatewayBank('http://127.0.0.1:9', 'k');
    await expect(withDeadline(2000, (s) => bank.charge(charge('ref-6'), s))).rejects.toMatchObject({
      kind: 'error',
    });
  });
});
