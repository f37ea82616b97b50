import { domainErrors } from './app-error';
import { Messages } from './messages';

/** Errors any route can answer: the HTTP layer's own, and the shared input rules (phone, amount). */
export enum CommonError {
  NotFound = 'not_found',
  MalformedJson = 'malformed_json',
  MalformedUrl = 'malformed_url',
  UriTooLong = 'uri_too_long',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  InvalidPhoneNumber = 'invalid_phone_number',
  AmountNotPositive = 'amount_not_positive',
  AmountTooLarge = 'amount_too_large',
  TooManyRequests = 'too_many_requests',
  InvalidCursor = 'invalid_cursor',
  ServiceUnavailable = 'service_unavailable',
}

export const commonError = domainErrors<CommonError>({
  [CommonError.NotFound]: [404, Messages.notFound],
  [CommonError.MalformedJson]: [400, Messages.malformedJson],
  [CommonError.MalformedUrl]: [400, Messages.malformedUrl],
  [CommonError.UriTooLong]: [414, Messages.uriTooLong],
  [CommonError.PayloadTooLarge]: [413, Messages.payloadTooLarge],
  [CommonError.UnsupportedMediaType]: [415, Messages.unsupportedMediaType],
  [CommonError.InvalidPhoneNumber]: [400, Messages.invalidPhoneNumber],
  [CommonError.AmountNotPositive]: [400, Messages.amountNotPositive],
  [CommonError.AmountTooLarge]: [400, Messages.amountTooLarge],
  [CommonError.TooManyRequests]: [429, Messages.tooManyRequests],
  [CommonError.InvalidCursor]: [400, Messages.invalidCursor],
  [CommonError.ServiceUnavailable]: [503, Messages.serviceUnavailable],
});
