/**
 * What the transfers module does with an incoming transfer (stores it idempotently on
 * (receivingBank, bankReference) and matches it in one transaction): the one call this module
 * makes of it, whichever way the transfer arrived.
 */
export interface IncomingTransfer {
  bankReference: string;
  receivingBank: string;
  receivingPhone: string;
  payerPhone: string;
  payerApp: string;
  amount: number;
  receivedAt: Date;
  memo?: string | null;
}

export interface ReceivedTransfer {
  status: string;
}

export interface TransferReceiver {
  receive(input: IncomingTransfer): Promise<{ transfer: ReceivedTransfer; created: boolean }>;
}

export const TRANSFER_RECEIVER = Symbol('TransferReceiver');
