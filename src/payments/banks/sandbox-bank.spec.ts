import { BankUnavailableError, withDeadline } from './bank';
import { timeOrderedId } from '../../database/time-ordered-id';
import { SandboxBank, sandboxBehaviour } from './sandbox-bank';

describe('sandbox bank rules', () => {
  it.each([
    ['22229001', 'declined'],
    ['33339002', 'no-answer'],
    ['44449003', 'pending'],
    ['22222222', 'completed'],
    ['33333333', 'completed'],
    ['44444444', 'completed'],
  ])('answers %s with %s (decided by the last four digits)', (phone, expected) => {
    expect(sandboxBehaviour(phone)).toBe(expected);
  });

  it.each(['1234', '12345', '123456'])('accepts the Bankily pass code %s (4 to 6 digits)', (code) => {
    expect(sandboxBehaviour('22222222', code)).toBe('completed');
  });

  it.each(['0000', '123', '1234567', 'abcd', ''])('declines the Bankily pass code %j', (code) => {
    expect(sandboxBehaviour('22222222', code)).toBe('declined');
  });

  it('answers a wrong pass code as such, whatever the phone', async () => {
    const bank = new SandboxBank('bankily');
    const charge = { reference: 'r', amount: 1, phoneNumber: '22222222', description: 'o', passCode: '0000' };
    expect(await withDeadline(1000, (s) => bank.charge(charge, s))).toEqual({
      status: 'declined',
      reason: 'wrong pass code',
      wrongPassCode: true,
    });
  });

  it('gives each payment and refund its own bank reference, two made in the same millisecond included', async () => {
    const bank = new SandboxBank('masrivi');
    const now = Date.now();
    const [a, b] = [timeOrderedId(now), timeOrderedId(now)];
    const charge = (reference: string) =>
      withDeadline(1000, (s) =>
        bank.charge({ reference, amount: 1, phoneNumber: '22222222', description: 'o' }, s),
      );
    const [first, second] = [await charge(a), await charge(b)];
    expect(first.status === 'completed' && second.status === 'completed').toBe(true);
    expect((first as { bankReference: string }).bankReference).not.toBe(
      (second as { bankReference: string }).bankReference,
    );
    const refund = (reference: string) =>
      bank.refund({ reference, chargeReference: a, amount: 1, phoneNumber: '22222222' });
    expect(await refund(a)).not.toEqual(await refund(b));
  });

  it('times out on the number whose bank never answers', async () => {
    const bank = new SandboxBank('masrivi');
    const call = withDeadline(20, (signal) =>
      bank.charge({ reference: 'ref', amount: 1, phoneNumber: '22229002', description: 'o' }, signal),
    );
    await expect(call).rejects.toBeInstanceOf(BankUnavailableError);
    await expect(call).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('reports a pending payment as pending when asked its status', async () => {
    const bank = new SandboxBank('sedad');
    const answer = await withDeadline(1000, (s) =>
      bank.status({ reference: 'r', phoneNumber: '22229003' }, s),
    );
    expect(answer.status).toBe('pending');
  });
});
