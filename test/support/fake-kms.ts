import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { listenOnLoopback, whenReceived } from './fake-server.ts';

// A stand-in for KMS on localhost, speaking its JSON protocol for the two calls the service makes
// (GenerateDataKey, Decrypt), found through AWS_ENDPOINT_URL_KMS. It wraps data keys under a
// key of its own, bound to the key id, and records every call.

export interface KmsCall {
  target: string;
  body: Record<string, string>;
  signedBy: string | undefined;
}

export async function startFakeKms(): Promise<{ server: Server; url: string; calls: KmsCall[] }> {
  const master = randomBytes(32);
  const calls: KmsCall[] = [];
  const wrap = (keyId: string, plaintext: Buffer) => {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', master, iv);
    cipher.setAAD(Buffer.from(keyId));
    const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    return Buffer.from(
      JSON.stringify({ keyId, iv: iv.toString('base64'), tag: cipher.getAuthTag().toString('base64'), body: body.toString('base64') }),
    ).toString('base64');
  };
  const unwrap = (blob: string) => {
    const { keyId, iv, tag, body } = JSON.parse(Buffer.from(blob, 'base64').toString('utf8'));
    const decipher = createDecipheriv('aes-256-gcm', master, Buffer.from(iv, 'base64'));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(Buffer.from(tag, 'base64'));
    return { keyId: keyId as string, plaintext: Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]) };
  };
  const server = createServer((req, res) => {
    whenReceived(req, (received) => {
      const raw = received.toString('utf8');
      const target = String(req.headers['x-amz-target'] ?? '');
      const body = JSON.parse(raw || '{}') as Record<string, string>;
      calls.push({ target, body, signedBy: /Credential=([^/]+)\//.exec(String(req.headers.authorization ?? ''))?.[1] });
      const answer = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify(payload));
      };
      if (target === 'TrentService.GenerateDataKey') {
        if (body.KeySpec !== 'AES_256') return answer(400, { __type: 'ValidationException', message: 'KeySpec' });
        const plaintext = randomBytes(32);
        return answer(200, { KeyId: body.KeyId, Plaintext: plaintext.toString('base64'), CiphertextBlob: wrap(body.KeyId!, plaintext) });
      }
      if (target === 'TrentService.Decrypt') {
        const { keyId, plaintext } = unwrap(body.CiphertextBlob!);
        if (body.KeyId && body.KeyId !== keyId) return answer(400, { __type: 'IncorrectKeyException', message: 'wrong key' });
        return answer(200, { KeyId: keyId, Plaintext: plaintext.toString('base64') });
      }
      answer(400, { __type: 'UnknownOperationException', message: target });
    });
  });
  const { url } = await listenOnLoopback(server);
  return { server, url, calls };
}
