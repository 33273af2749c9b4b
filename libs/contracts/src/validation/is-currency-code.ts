import { isISO4217CurrencyCode } from 'class-validator';
import { Rule } from './rule';

// validator.js accepts lower case too; the stored code stays canonical (and comparable) instead.
const CAPITAL_CODE = /^[A-Z]{3}$/;

export function IsCurrencyCode(): PropertyDecorator {
  return Rule(
    'isCurrencyCode',
    (value) =>
      typeof value === 'string' && CAPITAL_CODE.test(value) && isISO4217CurrencyCode(value),
    'must be an ISO 4217 currency code in capitals, such as USD',
    { type: 'string', pattern: CAPITAL_CODE.source },
  );
}
