{{- define "sesame.fullname" -}}{{ .Release.Name }}{{- end -}}

{{- define "sesame.labels" -}}
app.kubernetes.io/part-of: sesame
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ .Chart.Name }}-{{ .Chart.Version }}
{{- end -}}

{{- define "sesame.selector" -}}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/name: {{ .name }}
{{- end -}}

{{- define "sesame.image" -}}
{{ .Values.image.repository }}:{{ default .Chart.AppVersion .Values.image.tag }}
{{- end -}}

{{- define "sesame.secretEnv" -}}
- name: {{ .var }}
  valueFrom:
    secretKeyRef:
      name: {{ .ref.name }}
      key: {{ .ref.key }}
{{- end -}}

{{- /*
SESAME_REDIS_URL: from redisUrlSecret (mode url), or built from the Sentinel or Cluster addresses. The password
comes from its Secret as SESAME_REDIS_PASSWORD, declared first, and Kubernetes puts it into the URL
($(SESAME_REDIS_PASSWORD)): the rendered manifest never holds it.
*/}}
{{- define "sesame.redisEnv" -}}
{{- $r := .Values.stores.redis | default (dict "mode" "url") -}}
{{- if eq $r.mode "url" -}}
{{ include "sesame.secretEnv" (dict "var" "SESAME_REDIS_URL" "ref" .Values.stores.redisUrlSecret) }}
{{- else -}}
{{- $hosts := ternary $r.sentinels $r.nodes (eq $r.mode "sentinel") | default list -}}
{{- if not $hosts -}}
{{- fail (printf "stores.redis.%s: list the %s (host:port) for mode %s" (ternary "sentinels" "nodes" (eq $r.mode "sentinel")) (ternary "sentinels" "cluster nodes" (eq $r.mode "sentinel")) $r.mode) -}}
{{- end -}}
{{- if and (eq $r.mode "sentinel") (not $r.masterName) -}}
{{- fail "stores.redis.masterName: the name the sentinels monitor the primary under is required for mode sentinel" -}}
{{- end -}}
{{- $auth := "" -}}
{{- if $r.passwordSecret }}
{{ include "sesame.secretEnv" (dict "var" "SESAME_REDIS_PASSWORD" "ref" $r.passwordSecret) }}
{{- $auth = ":$(SESAME_REDIS_PASSWORD)@" -}}
{{- end }}
- name: SESAME_REDIS_URL
  value: {{ printf "redis+%s://%s%s%s%s" $r.mode $auth (join "," $hosts) (ternary (printf "/%s" $r.masterName) "" (eq $r.mode "sentinel")) (ternary "?tls=true" "" (default false $r.tls)) | quote }}
{{- end -}}
{{- end -}}

{{- /* Replicas a service runs with at least: the HPA's floor when it scales, else its replicas. */}}
{{- define "sesame.minReplicas" -}}
{{- if and .svc.autoscaling .svc.autoscaling.enabled -}}{{ .svc.autoscaling.minReplicas }}{{- else -}}{{ .svc.replicas }}{{- end -}}
{{- end -}}

{{- define "sesame.grpcTlsSecret" -}}
{{- $secrets := .root.Values.grpcTls.secrets | default dict -}}
{{- get $secrets .name | default (printf "%s-%s-grpc-tls" (include "sesame.fullname" .root) .name) -}}
{{- end -}}

{{- /* The region's name: region, or the deprecated environment of chart 0.1 when a values file still sets it. */}}
{{- define "sesame.region" -}}
{{- .Values.environment | default .Values.region -}}
{{- end -}}

{{- /* The region's kind; the deprecated environment implies it (production and production-eu: production). */}}
{{- define "sesame.kind" -}}
{{- if .Values.environment -}}
{{- ternary "production" "sandbox" (has .Values.environment (list "production" "production-eu")) -}}
{{- else -}}
{{- .Values.kind -}}
{{- end -}}
{{- end -}}

{{- /* Refusals that a schema cannot express: they depend on the region's kind, never on its name. */}}
{{- define "sesame.validate" -}}
{{- if and (eq (include "sesame.kind" .) "production") (not .Values.grpcTls.enabled) -}}
{{- fail (printf "grpcTls.enabled: %s needs mutual TLS between the services (kind production); enable grpcTls (with grpcTls.certManager or a Secret per service in grpcTls.secrets)" (include "sesame.region" .)) -}}
{{- end -}}
{{- if eq (include "sesame.kind" .) "production" -}}
{{- range $host, $url := .Values.urls -}}
{{- if not (hasPrefix "https://" $url) -}}
{{- fail (printf "urls.%s: %s is a production region; its hosts (and the issuer, urls.auth) must be https://" $host (include "sesame.region" $)) -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- end -}}
