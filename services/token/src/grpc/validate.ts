import { GrpcError, GrpcStatus } from '@sesame/platform';
import type { grants } from '@sesame/proto';
import { z } from 'zod';

const device = z.object({ deviceName: z.string(), osType: z.string(), osVersion: z.string() }).passthrough();

/** The claim set auth computed must name the person and carry svc_info with both devices (spec 2.2). */
export const authenticatedClaimsSchema = z
  .object({
    sub: z.string().min(1),
    authTime: z.number().int().positive(),
    acr: z.array(z.string().min(1)),
    amr: z.array(z.string().min(1)).min(1),
    svcInfo: z.object({ originatingDevice: device, authenticatingDevice: device }).passthrough(),
  })
  .passthrough();

/** Parses a gRPC request part with zod; a violation is INVALID_ARGUMENT naming the fields. */
export function validate<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join('.') || what}: ${i.message}`).join('; ');
    throw new GrpcError(GrpcStatus.INVALID_ARGUMENT, `invalid ${what}: ${fields}`);
  }
  return parsed.data;
}

export function requireClaims(claims: grants.AuthenticatedClaims | undefined): grants.AuthenticatedClaims {
  validate(authenticatedClaimsSchema, claims, 'claims');
  return claims as grants.AuthenticatedClaims;
}
