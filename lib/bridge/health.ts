import { BadRequestError } from '../errors.ts';
import type { EnvScope } from '../scope.ts';
import { askBridge } from './outbound-ask.ts';
import { BridgeCallError } from './call-result.ts';
import { requireBridgeUrl } from './environment.ts';

// The bridge's health check (`GET ?action=health-check`, which the framework answers unsigned):
// GET /v1/bridge/status asks the environment's stored bridge, POST /v1/bridge/validate a URL the
// caller gives. Both are made by the outbound consumer (lib/bridge/outbound-*.ts), through the address guard
// (lib/net): in AWS a private or loopback URL is not valid.

export interface HealthCheck {
  status: string;
  sdkVersion?: string;
  frameworkVersion?: string;
  discovered?: { workflows: number; steps: number };
}

async function healthCheck(scope: EnvScope, url: string): Promise<HealthCheck> {
  const { body } = await askBridge(scope, { url, action: 'health-check', signed: false, attempts: 1 });
  const answer = (body ?? {}) as Partial<HealthCheck>;
  if (typeof answer.status !== 'string')
    throw new BridgeCallError('The bridge did not answer a health check', { durationMs: 0, attempts: 1 });
  return {
    status: answer.status,
    ...(typeof answer.sdkVersion === 'string' && { sdkVersion: answer.sdkVersion }),
    ...(typeof answer.frameworkVersion === 'string' && { frameworkVersion: answer.frameworkVersion }),
    ...(answer.discovered && { discovered: answer.discovered }),
  };
}

export async function bridgeStatus(scope: EnvScope): Promise<HealthCheck> {
  const url = await requireBridgeUrl(scope);
  try {
    return await healthCheck(scope, url);
  } catch (error) {
    if (error instanceof BridgeCallError) throw new BadRequestError(`Bridge health check failed: ${error.message}`);
    throw error;
  }
}

export async function validateBridgeUrl(scope: EnvScope, url: string): Promise<{ isValid: boolean; error?: string }> {
  try {
    const answer = await healthCheck(scope, url);
    return answer.status === 'ok' ? { isValid: true } : { isValid: false, error: `The bridge reports status ${answer.status}` };
  } catch (error) {
    if (error instanceof BridgeCallError) return { isValid: false, error: error.message };
    throw error;
  }
}
