import { Injectable } from '@nestjs/common';
import { Db } from '../database/db';
import { sql } from '../database/sql';
import type {
  ApplicationFields,
  DocumentKind,
  DocumentType,
  SealedBytes,
  StoredApplication,
  StoredDocument,
} from './application';

/**
 * The go-live applications an organization sends and their documents (sealed: encrypted before
 * they reach here). The organization's own standing is written by `OrganizationsRepository`.
 */
@Injectable()
export class VerificationRepository {
  constructor(private readonly db: Db) {}

  async insertApplication(application: {
    id: string;
    organizationId: string;
    submittedBy: string | null;
    fields: ApplicationFields;
    representativeId: SealedBytes;
  }): Promise<void> {
    const f = application.fields;
    await this.db.exec(sql`
      INSERT INTO verification_applications (id, organization_id, submitted_by, legal_name, trade_name, legal_form,
             rccm, nif, address, representative_name, representative_phone, representative_id_key,
             representative_id_sealed, payout_bank, payout_holder, payout_iban)
      VALUES (${application.id}, ${application.organizationId}, ${application.submittedBy}, ${f.legalName},
              ${f.tradeName}, ${f.legalForm}, ${f.rccm}, ${f.nif}, ${f.address}, ${f.representativeName},
              ${f.representativePhone}, ${application.representativeId.keyId}, ${application.representativeId.sealed},
              ${f.payoutBank}, ${f.payoutHolder}, ${f.payoutIban})`);
  }

  async insertDocument(
    applicationId: string,
    kind: DocumentKind,
    document: { contentType: DocumentType; size: number } & SealedBytes,
  ): Promise<void> {
    await this.db.exec(sql`
      INSERT INTO verification_documents (application_id, kind, content_type, size, key_id, sealed)
      VALUES (${applicationId}, ${kind}, ${document.contentType}, ${document.size}, ${document.keyId}, ${document.sealed})`);
  }

  /** Carries a document of an earlier application over to a corrected one (the owner sent no new file). */
  async copyDocument(
    fromApplicationId: string,
    toApplicationId: string,
    kind: DocumentKind,
  ): Promise<boolean> {
    return (
      (await this.db.exec(sql`
        INSERT INTO verification_documents (application_id, kind, content_type, size, key_id, sealed)
        SELECT ${toApplicationId}, kind, content_type, size, key_id, sealed FROM verification_documents
         WHERE application_id = ${fromApplicationId} AND kind = ${kind}`)) > 0
    );
  }

  /** The organization's latest application (the one an operator decides on), without the documents' bytes. */
  latestApplication(organizationId: string): Promise<StoredApplication | undefined> {
    return this.db
      .one<StoredApplication>(
        sql`
      SELECT a.id, a.organization_id AS "organizationId", a.legal_name AS "legalName", a.trade_name AS "tradeName",
             a.legal_form AS "legalForm", a.rccm, a.nif, a.address, a.representative_name AS "representativeName",
             a.representative_phone AS "representativePhone", a.payout_bank AS "payoutBank",
             a.payout_holder AS "payoutHolder", a.payout_iban AS "payoutIban", a.created_at AS "createdAt",
             json_build_object('keyId', a.representative_id_key,
                               'sealed', encode(a.representative_id_sealed, 'base64')) AS "representativeId",
             COALESCE((SELECT json_agg(json_build_object('kind', d.kind, 'contentType', d.content_type, 'size', d.size)
                                       ORDER BY d.kind)
                         FROM verification_documents d WHERE d.application_id = a.id), '[]') AS documents
        FROM verification_applications a
       WHERE a.organization_id = ${organizationId}
       ORDER BY a.created_at DESC, a.id DESC LIMIT 1`,
      )
      .then((row) =>
        row
          ? {
              ...row,
              representativeId: {
                keyId: row.representativeId.keyId,
                sealed: Buffer.from(row.representativeId.sealed as unknown as string, 'base64'),
              },
            }
          : undefined,
      );
  }

  /** A document of the organization's latest application, sealed. */
  document(organizationId: string, kind: DocumentKind): Promise<StoredDocument | undefined> {
    return this.db.one<StoredDocument>(sql`
      SELECT d.content_type AS "contentType", d.size, d.key_id AS "keyId", d.sealed
        FROM verification_documents d
       WHERE d.kind = ${kind} AND d.application_id = (
             SELECT a.id FROM verification_applications a WHERE a.organization_id = ${organizationId}
              ORDER BY a.created_at DESC, a.id DESC LIMIT 1)`);
  }

  /** The organizations whose application waits for an operator, oldest first. */
  submittedQueue(limit = 200): Promise<{ id: string; name: string; submittedAt: Date }[]> {
    return this.db.many(sql`
      SELECT id, name, verification_submitted_at AS "submittedAt" FROM organizations
       WHERE verification_status = 'submitted'
       ORDER BY verification_submitted_at, id LIMIT ${limit}`);
  }
}
