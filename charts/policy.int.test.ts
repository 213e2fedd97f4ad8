import assert from 'node:assert/strict';
import { describe, it } from '@jest/globals';
import { type Manifest, environments, ofKind, render, serviceOf } from './render';

const services = ['activity-log', 'auth', 'ciba-notifier', 'jwks', 'mgmt', 'token'];
/** ARCHITECTURE §1, "reads from": who calls whose gRPC contract. */
const calls: Record<string, string[]> = {
  auth: ['jwks', 'mgmt', 'token'],
  token: ['jwks', 'mgmt'],
  mgmt: ['activity-log', 'auth', 'jwks', 'token'],
  jwks: [],
  'activity-log': [],
  'ciba-notifier': [],
};
const podSpecs = (docs: Manifest[]) =>
  ofKind(docs, 'Deployment').map((d) => ({ d, spec: d.spec.template.spec }));
const minReplicas = (docs: Manifest[], d: Manifest) =>
  ofKind(docs, 'HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === d.metadata.name)?.spec
    .minReplicas ?? d.spec.replicas;
const grpcPeers = (rules: Manifest[] = []) =>
  rules
    .filter((r) => r.ports?.some((p: Manifest) => p.port === 50051))
    .flatMap((r) =>
      (r.from ?? r.to ?? []).map((p: Manifest) => p.podSelector.matchLabels['app.kubernetes.io/name']),
    )
    .sort();

/**
 * A store URL the chart builds from addresses (stores.redis mode sentinel or cluster): its only credential is a
 * $(NAME) reference to a variable declared before it from a Secret, never a literal password.
 */
function builtUrl(e: Manifest, fromSecret: Set<string>): boolean {
  if (e.name !== 'SESAME_REDIS_URL' || typeof e.value !== 'string') return false;
  const m = /^redis\+(?:sentinel|cluster):\/\/(?::\$\(([A-Z0-9_]+)\)@)?[^@]*$/.exec(e.value);
  return m !== null && (m[1] === undefined || fromSecret.has(m[1]));
}

describe.each(environments)('policy of the %s manifests', (env) => {
  const docs = render(env);

  it('every container runs as non-root with a read-only root filesystem, no capabilities and a seccomp profile', () => {
    for (const { d, spec } of podSpecs(docs)) {
      assert.equal(spec.securityContext.runAsNonRoot, true, d.metadata.name);
      assert.equal(spec.securityContext.seccompProfile.type, 'RuntimeDefault', d.metadata.name);
      for (const c of spec.containers) {
        assert.equal(c.securityContext.readOnlyRootFilesystem, true, c.name);
        assert.equal(c.securityContext.allowPrivilegeEscalation, false, c.name);
        assert.deepEqual(c.securityContext.capabilities.drop, ['ALL'], c.name);
      }
    }
  });

  it('every container requests CPU and memory and has a memory limit', () => {
    for (const { spec } of podSpecs(docs)) {
      for (const c of spec.containers) {
        assert.ok(c.resources.requests.cpu && c.resources.requests.memory, c.name);
        assert.ok(c.resources.limits.memory, c.name);
      }
    }
  });

  it('every container has startup, readiness and liveness probes; readiness is /readyz on the ops port', () => {
    for (const { spec } of podSpecs(docs)) {
      for (const c of spec.containers) {
        assert.ok(c.startupProbe && c.readinessProbe && c.livenessProbe, c.name);
        // Not the kubelet's gRPC probe: it cannot speak the mTLS that the gRPC port requires.
        assert.deepEqual(c.readinessProbe.httpGet, { path: '/readyz', port: 'ops' }, c.name);
        assert.deepEqual(c.startupProbe.httpGet, { path: '/readyz', port: 'ops' }, c.name);
      }
    }
  });

  it('every multi-replica service has a PodDisruptionBudget and spreads over nodes and zones', () => {
    const pdbs = new Set(
      ofKind(docs, 'PodDisruptionBudget').map((p) => p.spec.selector.matchLabels['app.kubernetes.io/name']),
    );
    const multi = ofKind(docs, 'Deployment').filter((d) => minReplicas(docs, d) > 1);
    if (env !== 'sandbox')
      assert.ok(multi.length >= 5, 'production runs at least five services on several replicas');
    for (const d of multi) {
      assert.ok(pdbs.has(serviceOf(d)), `${serviceOf(d)} has a PodDisruptionBudget`);
      const keys = d.spec.template.spec.topologySpreadConstraints?.map((t: Manifest) => t.topologyKey) ?? [];
      assert.deepEqual(keys.sort(), ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'], serviceOf(d));
    }
  });

  it('a default-deny NetworkPolicy covers every pod, and gRPC is open exactly along the calls of ARCHITECTURE §1', () => {
    const policies = ofKind(docs, 'NetworkPolicy');
    const deny = policies.find((p) => p.metadata.name.endsWith('-default-deny'));
    assert.ok(deny, 'default-deny policy');
    assert.deepEqual(deny.spec.policyTypes, ['Ingress', 'Egress']);
    assert.equal(deny.spec.ingress, undefined);
    assert.equal(deny.spec.egress, undefined);
    assert.deepEqual(Object.keys(deny.spec.podSelector.matchLabels), ['app.kubernetes.io/instance']);
    for (const name of services) {
      const own = policies.find((p) => p.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === name);
      assert.ok(own, `${name} has its policy`);
      const callers = services.filter((s) => calls[s]!.includes(name));
      assert.deepEqual(grpcPeers(own.spec.ingress), callers, `who may call ${name}`);
      assert.deepEqual(grpcPeers(own.spec.egress), calls[name], `whom ${name} may call`);
    }
  });

  it('the token service scales on its own HPA', () => {
    const hpas = ofKind(docs, 'HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name);
    if (env === 'sandbox') assert.deepEqual(hpas, []);
    else assert.deepEqual(hpas, ['sesame-token']);
  });

  it('no Secret value is inlined: no Secret objects; secret-bearing variables come from a secretKeyRef or name a file of a mounted Secret', () => {
    assert.deepEqual(ofKind(docs, 'Secret'), []);
    const secretish = /(REDIS|MONGO)_URL$|KEY$|SECRET|PASSWORD|TOKEN/;
    for (const { spec } of podSpecs(docs)) {
      for (const c of spec.containers) {
        const secretMounts = c.volumeMounts
          .filter((m: Manifest) => spec.volumes.find((v: Manifest) => v.name === m.name)?.secret)
          .map((m: Manifest) => `${m.mountPath}/`);
        const fromSecret = new Set<string>();
        for (const e of c.env ?? []) {
          if (e.valueFrom?.secretKeyRef) fromSecret.add(e.name);
          if (!secretish.test(e.name)) continue;
          const fromSecretFile = secretMounts.some((dir: string) => e.value?.startsWith(dir));
          assert.ok(
            e.valueFrom?.secretKeyRef || fromSecretFile || builtUrl(e, fromSecret),
            `${c.name}: ${e.name}`,
          );
        }
      }
    }
    for (const cm of ofKind(docs, 'ConfigMap').filter((m) => !m.metadata.name.endsWith('-dashboard'))) {
      assert.deepEqual(
        Object.keys(cm.data).filter((k) => secretish.test(k)),
        [],
        cm.metadata.name,
      );
    }
  });

  it('every service mounts its gRPC certificate at /etc/sesame/grpc-tls and names the files', () => {
    for (const { d, spec } of podSpecs(docs)) {
      const c = spec.containers[0];
      const env_ = Object.fromEntries((c.env ?? []).map((e: Manifest) => [e.name, e.value]));
      if (env === 'sandbox') {
        assert.equal(env_.SESAME_GRPC_TLS_CERT, undefined);
        continue;
      }
      assert.deepEqual(
        [env_.SESAME_GRPC_TLS_CA, env_.SESAME_GRPC_TLS_CERT, env_.SESAME_GRPC_TLS_KEY],
        ['/etc/sesame/grpc-tls/ca.crt', '/etc/sesame/grpc-tls/tls.crt', '/etc/sesame/grpc-tls/tls.key'],
      );
      const mount = c.volumeMounts.find((m: Manifest) => m.mountPath === '/etc/sesame/grpc-tls');
      const volume = spec.volumes.find((v: Manifest) => v.name === mount.name);
      assert.equal(volume.secret.secretName, `${d.metadata.name}-grpc-tls`);
      assert.deepEqual(
        volume.secret.items.map((i: Manifest) => i.key),
        ['ca.crt', 'tls.crt', 'tls.key'],
      );
    }
    const certs = ofKind(docs, 'Certificate');
    assert.equal(certs.length, env === 'sandbox' ? 0 : 6);
    for (const cert of certs) {
      assert.equal(cert.spec.commonName, serviceOf(cert), 'identity: CN = service name');
      assert.ok(cert.spec.dnsNames.includes(`sesame-${serviceOf(cert)}`), 'DNS SAN: the Service name');
      assert.ok(cert.spec.usages.includes('server auth') && cert.spec.usages.includes('client auth'));
      assert.equal(cert.spec.secretName, `sesame-${serviceOf(cert)}-grpc-tls`);
    }
  });

  it('a ServiceMonitor scrapes each service, the PrometheusRule has the nine alerts, the dashboard is there', () => {
    assert.deepEqual(ofKind(docs, 'ServiceMonitor').map(serviceOf).sort(), services);
    const rule = ofKind(docs, 'PrometheusRule')[0];
    assert.deepEqual(rule.spec.groups[0].rules.map((r: Manifest) => r.alert).sort(), [
      'SesameActivityLogConsumerLag',
      'SesameCibaPingFailures',
      'SesameHigh5xxRatio',
      'SesameKeyRotationOverdue',
      'SesameMailFailures',
      'SesameOutboxBacklog',
      'SesameSigninSuccessRateDrop',
      'SesameSmsFailures',
      'SesameTokenLatencyHigh',
    ]);
    const dashboard = JSON.parse(
      ofKind(docs, 'ConfigMap').find((m) => m.metadata.labels.grafana_dashboard).data['sesame.json'],
    );
    assert.equal(dashboard.panels.length, 12);
  });

  it('the Kafka outbox of production pods lives on a claim that outlives the pod', () => {
    for (const { d, spec } of podSpecs(docs)) {
      const data = spec.volumes.find((v: Manifest) => v.name === 'data');
      if (env === 'sandbox') assert.ok(data.emptyDir, d.metadata.name);
      else {
        assert.equal(data.persistentVolumeClaim.claimName, `${d.metadata.name}-outbox`);
        const env_ = spec.containers[0].env.find((e: Manifest) => e.name === 'SESAME_OUTBOX_SHARED_DIR');
        assert.equal(
          env_.value,
          '/var/lib/sesame/shared',
          'each pod writes its own outbox there and adopts others',
        );
      }
    }
  });
});

describe('production-eu and production', () => {
  it('share no host, broker, database, secret or certificate issuer', () => {
    const facts = (env: 'production' | 'production-eu') => {
      const docs = render(env);
      const cm = ofKind(docs, 'ConfigMap').find((m) => m.metadata.name === 'sesame-env').data;
      const secrets = podSpecs(docs).flatMap(({ spec }) => [
        ...spec.containers.flatMap((c: Manifest) =>
          (c.env ?? []).map((e: Manifest) => e.valueFrom?.secretKeyRef?.name),
        ),
        ...spec.volumes.map((v: Manifest) => v.secret?.secretName),
      ]);
      return new Set([
        ...['SESAME_AUTH_URL', 'SESAME_ADMIN_URL', 'SESAME_API_URL'].map((k) => new URL(cm[k]).host),
        ...cm.SESAME_KAFKA_BROKERS.split(','),
        ...secrets
          .filter(Boolean)
          .filter((s: string) => !s.startsWith('sesame-') || !s.endsWith('-grpc-tls')),
        ...ofKind(docs, 'Certificate').map((c) => `issuer:${c.spec.issuerRef.name}`),
        ...ofKind(docs, 'NetworkPolicy')
          .flatMap((p) =>
            (p.spec.egress ?? []).flatMap((r: Manifest) =>
              (r.to ?? []).map((t: Manifest) => JSON.stringify(t.namespaceSelector ?? null)),
            ),
          )
          .filter((s) => s !== 'null'),
      ]);
    };
    const prod = facts('production');
    const eu = facts('production-eu');
    assert.ok(prod.size > 8 && eu.size > 8);
    assert.deepEqual(
      [...prod].filter((v) => eu.has(v)),
      [],
    );
  });
});
