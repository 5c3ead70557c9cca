// Which free document answer the docs stage gave (a document, or its JSON/HTML 404), so that the
// headers stage decides its Cache-Control with every other one.
import type Koa from 'koa';

export type DocumentAnswer = 'document' | 'missing-document';

const answers = new WeakMap<Koa.Context, DocumentAnswer>();

export function answeredWithDocument(ctx: Koa.Context, answer: DocumentAnswer): void {
  answers.set(ctx, answer);
}

export function documentAnswerOf(ctx: Koa.Context): DocumentAnswer | undefined {
  return answers.get(ctx);
}
