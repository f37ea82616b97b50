import { SetMetadata } from '@nestjs/common';
import { Messages } from '../common/errors/messages';

export const AUTH_METADATA = 'khoums:auth';

export type AuthRule =
  | { kind: 'public' }
  | { kind: 'any-key' }
  | { kind: 'secret-key'; publishableMessage: string };

/** Secret keys only; a publishable key gets 403 with `publishableMessage`. */
export const SecretKey = (publishableMessage: string = Messages.unauthorizedAccess) =>
  SetMetadata(AUTH_METADATA, { kind: 'secret-key', publishableMessage } satisfies AuthRule);

/** Either a secret or a publishable key (payment request look-up, payment methods, pay). */
export const AnyKey = () => SetMetadata(AUTH_METADATA, { kind: 'any-key' } satisfies AuthRule);

/** No API key (health, the hosted page and its public routes, the dashboard's own session). */
export const Public = () => SetMetadata(AUTH_METADATA, { kind: 'public' } satisfies AuthRule);
