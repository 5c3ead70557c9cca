// Client-facing errors. The HTTP layer renders them as
// {"error": {"status", "code", "message", "param"}}; anything else becomes a 500 without internals.

export type ErrorCode = 'invalid_parameter' | 'not_found' | 'method_not_allowed' | 'not_acceptable' | 'internal_error' | 'timeout'
  | 'license_not_approved';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly param: string | null = null,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function invalidParameter(param: string, message: string): ApiError {
  return new ApiError(400, 'invalid_parameter', message, param);
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'not_found', message);
}

/** 451: a reserve-bank series the route needs is not APPROVED by the operator (answered before any payment). */
export function licenseNotApproved(message: string): ApiError {
  return new ApiError(451, 'license_not_approved', message);
}
