import { normalizePhone } from '../common/validation/rules';
import type { UploadedFile } from '../common/http/uploads';
import {
  ApplicationFields,
  DocumentKind,
  DocumentType,
  LEGAL_FORMS,
  LegalForm,
} from '../organizations/application';
import { normalizeIban } from './payout-account';

/*
 * The go-live application's rules (docs/going-live.md): each field's check, and the documents
 * recognised by their bytes. The dashboard shows each problem in the owner's language by its code.
 */

/** Why a field was refused; the page has a text for each. */
export type FieldProblem =
  | 'required'
  | 'tooLong'
  | 'invalidLegalForm'
  | 'invalidRccm'
  | 'invalidNif'
  | 'invalidIdNumber'
  | 'invalidPhone'
  | 'invalidBank'
  | 'invalidIban'
  | 'documentRequired'
  | 'documentType'
  | 'documentTooLarge';

export const APPLICATION_FIELDS = [
  'legalName',
  'tradeName',
  'legalForm',
  'rccm',
  'nif',
  'address',
  'representativeName',
  'representativeIdNumber',
  'representativePhone',
  'payoutBank',
  'payoutHolder',
  'payoutIban',
] as const;
export type ApplicationField = (typeof APPLICATION_FIELDS)[number];

export const DOCUMENT_FIELDS: Record<DocumentKind, string> = {
  rccm_extract: 'rccmExtract',
  representative_id: 'representativeIdDocument',
};

export interface ApplicationDocument {
  contentType: DocumentType;
  data: Buffer;
}

export interface ApplicationInput {
  fields: ApplicationFields;
  representativeIdNumber: string;
  /** The documents sent with this submission (a corrected application may keep the earlier ones). */
  documents: Partial<Record<DocumentKind, ApplicationDocument>>;
}

export const MAX_DOCUMENT_BYTES = 5 * 1024 * 1024;

/** PDF, JPEG or PNG by their first bytes (never by name or declared type); null for anything else. */
export function documentTypeOf(data: Buffer): DocumentType | null {
  if (data.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf';
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'image/jpeg';
  if (data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  return null;
}

/** Text a form field may hold: printable, no NUL or lone surrogate. */
const clean = (value: string) => value.replace(/\s+/g, ' ').trim();
const storable = (value: string) =>
  // eslint-disable-next-line no-control-regex -- control characters are what it refuses
  !/[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(value);

type Problems = Partial<Record<string, FieldProblem>>;

/** A text field's reader: the cleaned value, its problem (if any) written to `problems`. */
function textReader(read: (name: string) => string, problems: Problems) {
  return (name: ApplicationField, max: number, pattern?: RegExp, problem?: FieldProblem): string => {
    const value = clean(read(name));
    if (!value) problems[name] = 'required';
    else if (value.length > max) problems[name] = 'tooLong';
    else if (!storable(value)) problems[name] = problem ?? 'required';
    else if (pattern && !pattern.test(value)) problems[name] = problem;
    return value;
  };
}

/** The payout account's three fields (the application's and a change's), problems to `problems`. */
function readPayoutFields(read: (name: string) => string, banks: readonly string[], problems: Problems) {
  const payoutBank = read('payoutBank');
  if (!banks.includes(payoutBank)) problems.payoutBank = payoutBank ? 'invalidBank' : 'required';
  const payoutHolder = textReader(read, problems)('payoutHolder', 200);
  const ibanInput = read('payoutIban');
  const payoutIban = normalizeIban(ibanInput);
  if (!payoutIban) problems.payoutIban = ibanInput.trim() ? 'invalidIban' : 'required';
  return { payoutBank, payoutHolder, payoutIban: payoutIban ?? '' };
}

/** A verified owner's new payout account (docs/going-live.md "Changing the payout account"). */
export interface PayoutAccountInput {
  bank: string;
  holderName: string;
  iban: string;
}

/** Reads the posted payout account change: the value, or each field's problem. */
export function readPayoutAccountChange(
  read: (name: string) => string,
  banks: readonly string[],
): { input: PayoutAccountInput } | { problems: Problems } {
  const problems: Problems = {};
  const { payoutBank, payoutHolder, payoutIban } = readPayoutFields(read, banks, problems);
  if (Object.keys(problems).length > 0) return { problems };
  return { input: { bank: payoutBank, holderName: payoutHolder, iban: payoutIban } };
}

/**
 * Reads the posted application: the value, or each field's problem. `read(name)` gives a text
 * field ('' when absent), `file(name)` an uploaded file. `hasEarlier` tells which documents an
 * earlier application of the organization holds (a corrected application may leave them out).
 */
export function readApplication(
  read: (name: string) => string,
  file: (name: string) => UploadedFile | undefined,
  banks: readonly string[],
  hasEarlier: (kind: DocumentKind) => boolean,
): { input: ApplicationInput } | { problems: Partial<Record<string, FieldProblem>> } {
  const problems: Partial<Record<string, FieldProblem>> = {};
  const text = textReader(read, problems);
  const legalName = text('legalName', 200);
  const tradeName = text('tradeName', 200);
  const legalForm = read('legalForm');
  if (!(LEGAL_FORMS as readonly string[]).includes(legalForm))
    problems.legalForm = legalForm ? 'invalidLegalForm' : 'required';
  const rccm = text('rccm', 50, /^[A-Za-z0-9][A-Za-z0-9 ./-]{2,49}$/, 'invalidRccm');
  const nif = text('nif', 15, /^[0-9]{5,15}$/, 'invalidNif');
  const address = text('address', 500);
  const representativeName = text('representativeName', 200);
  const idNumber = text('representativeIdNumber', 20, /^[A-Za-z0-9]{6,20}$/, 'invalidIdNumber');
  const phoneInput = read('representativePhone');
  const representativePhone = normalizePhone(phoneInput);
  if (!representativePhone) problems.representativePhone = phoneInput.trim() ? 'invalidPhone' : 'required';
  const payout = readPayoutFields(read, banks, problems);
  const { payoutBank, payoutHolder, payoutIban } = payout;

  const documents: Partial<Record<DocumentKind, ApplicationDocument>> = {};
  for (const [kind, name] of Object.entries(DOCUMENT_FIELDS) as [DocumentKind, string][]) {
    const upload = file(name);
    if (!upload || upload.data.length === 0) {
      if (!hasEarlier(kind)) problems[name] = 'documentRequired';
      continue;
    }
    if (upload.truncated || upload.data.length > MAX_DOCUMENT_BYTES) {
      problems[name] = 'documentTooLarge';
      continue;
    }
    const contentType = documentTypeOf(upload.data);
    if (!contentType) problems[name] = 'documentType';
    else documents[kind] = { contentType, data: upload.data };
  }

  if (Object.keys(problems).length > 0) return { problems };
  return {
    input: {
      fields: {
        legalName,
        tradeName,
        legalForm: legalForm as LegalForm,
        rccm,
        nif,
        address,
        representativeName,
        representativePhone: representativePhone!,
        payoutBank,
        payoutHolder,
        payoutIban,
      },
      representativeIdNumber: idNumber,
      documents,
    },
  };
}
