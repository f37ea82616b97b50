import { domainErrors } from '../common/errors/app-error';
import { Messages } from '../common/errors/messages';

export enum TransferGatewayError {
  InvalidSignature = 'invalid_signature',
}

export const transferGatewayError = domainErrors<TransferGatewayError>({
  [TransferGatewayError.InvalidSignature]: [401, Messages.invalidSignature],
});
