import * as grpc from '@grpc/grpc-js';
import * as protoLoader from '@grpc/proto-loader';
import { protoPath } from 'grpc-health-check';

type Status = 'UNKNOWN' | 'SERVING' | 'NOT_SERVING' | 'SERVICE_UNKNOWN';

interface RawHealthClient extends grpc.Client {
  check(
    req: { service: string },
    opts: Partial<grpc.CallOptions>,
    cb: (err: grpc.ServiceError | null, res?: { status: Status }) => void,
  ): void;
}

/** A grpc.health.v1 client, as Kubernetes probes and the e2e tests use it. */
export class HealthClient {
  private readonly client: RawHealthClient;

  constructor(address: string, credentials: grpc.ChannelCredentials = grpc.credentials.createInsecure()) {
    const definition = protoLoader.loadSync(protoPath, { keepCase: true, enums: String, defaults: true });
    const pkg = grpc.loadPackageDefinition(definition) as unknown as {
      grpc: { health: { v1: { Health: new (a: string, c: grpc.ChannelCredentials) => RawHealthClient } } };
    };
    this.client = new pkg.grpc.health.v1.Health(address, credentials);
  }

  check(service = '', deadlineMs = 2000): Promise<Status> {
    return new Promise((resolve, reject) =>
      this.client.check({ service }, { deadline: Date.now() + deadlineMs }, (err, res) =>
        err ? reject(err) : resolve(res!.status),
      ),
    );
  }

  close(): void {
    this.client.close();
  }
}
