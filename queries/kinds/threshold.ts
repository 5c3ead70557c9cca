// Thresholds (`min_percent`, `z`): a non-negative number with a default, compared with absolute values.
import { defineKind, type Kind } from './kind.ts';

export interface ThresholdOptions {
  name: string;
  description: string;
  default: number;
  /** Largest value (default 1,000,000). */
  maximum?: number;
}

/** A threshold parameter -> its value (the default when omitted). */
export function threshold(options: ThresholdOptions): Kind<number> {
  return defineKind({
    params: {
      [options.name]: {
        in: ['query'],
        description: options.description,
        schema: { type: 'number', minimum: 0, maximum: options.maximum ?? 1_000_000, default: options.default },
      },
    },
    resolve: (raw) => (raw[options.name] as number | undefined) ?? options.default,
  });
}
