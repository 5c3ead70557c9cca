// The payment store the settings ask for: PostgreSQL when DATABASE_URL is set (shared by every
// replica), otherwise the embedded file store beside the revenue ledger (one process).
import type { PaymentSettings } from '../config.ts';
import { FilePaymentStore } from './file.ts';
import { PostgresPaymentStore } from './postgres.ts';
import type { PaymentStore } from './types.ts';

export interface OpenPaymentStoreOptions {
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}

/** The store, not opened yet: its open() reads the files or runs the migrations (PaymentStoreUnavailableError when it cannot). */
export function createPaymentStore(settings: PaymentSettings, options: OpenPaymentStoreOptions = {}): PaymentStore {
  const bounds = { maxAnswerBytes: settings.paidAnswers.maxBytes, maxAnswerAgeSeconds: settings.paidAnswers.maxAgeSeconds };
  return settings.databaseUrl
    ? new PostgresPaymentStore({ connectionString: settings.databaseUrl, ...bounds, ...options })
    : new FilePaymentStore({ settlementsPath: settings.paidAnswers.path, ledgerPath: settings.ledgerPath, ...bounds, ...options });
}
