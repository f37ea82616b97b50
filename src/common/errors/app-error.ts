/**
 * A failure the client caused or can act on: its status and exact message are part of the API.
 * Domains throw these (usually through the helpers below); the global filter writes them as text.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string) => new AppError(400, message);
export const unauthorized = (message: string) => new AppError(401, message);
export const forbidden = (message: string) => new AppError(403, message);
export const notFound = (message: string) => new AppError(404, message);
export const conflict = (message: string) => new AppError(409, message);
export const badGateway = (message: string) => new AppError(502, message);
