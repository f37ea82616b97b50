/*
 * An owner's application to go live (docs/going-live.md), as its repository stores and reads it:
 * the ID number and the documents sealed (AES-256-GCM) by the caller.
 */

export const DOCUMENT_KINDS = ['rccm_extract', 'representative_id'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

export const DOCUMENT_TYPES = ['application/pdf', 'image/jpeg', 'image/png'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const LEGAL_FORMS = ['SA', 'SARL', 'SUARL', 'SNC', 'GIE', 'EI', 'ASSOCIATION', 'OTHER'] as const;
export type LegalForm = (typeof LEGAL_FORMS)[number];

/** What the owner filled in, in clear (every field but the ID number, which is sealed). */
export interface ApplicationFields {
  legalName: string;
  tradeName: string;
  legalForm: LegalForm;
  rccm: string;
  nif: string;
  address: string;
  representativeName: string;
  representativePhone: string;
  payoutBank: string;
  payoutHolder: string;
  payoutIban: string;
}

export interface SealedBytes {
  keyId: string;
  sealed: Buffer;
}

export interface StoredApplication extends ApplicationFields {
  id: string;
  organizationId: string;
  representativeId: SealedBytes;
  createdAt: Date;
  /** The kinds of document stored with it. */
  documents: { kind: DocumentKind; contentType: DocumentType; size: number }[];
}

export interface StoredDocument {
  contentType: DocumentType;
  size: number;
  keyId: string;
  sealed: Buffer;
}
