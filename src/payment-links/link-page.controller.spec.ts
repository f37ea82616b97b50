import { asciiDigits, parseTypedAmount } from './link-page.controller';

describe('the amount a customer types on a link page', () => {
  it('reads digits, Arabic-Indic and Persian ones too, with thousands grouped or not', () => {
    expect(parseTypedAmount('1500')).toBe(1500);
    expect(parseTypedAmount(' 12 500 ')).toBe(12_500);
    expect(parseTypedAmount('12.500')).toBe(12_500);
    expect(parseTypedAmount('1,250,000')).toBe(1_250_000);
    expect(parseTypedAmount('١٢٬٥٠٠')).toBe(12_500);
    expect(parseTypedAmount('۱۵۰۰')).toBe(1500);
    expect(asciiDigits('٢٢١٢٣٤٥٦')).toBe('22123456');
  });

  it('refuses decimals, signs, words and stray separators', () => {
    for (const typed of ['12.5', '12,50', '-5', '1e3', 'abc', '', '1 5', '12 5000', '1234567890'])
      expect(parseTypedAmount(typed)).toBeNull();
  });
});
