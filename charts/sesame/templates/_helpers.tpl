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

{{- /* Replicas a service runs with at least: the HPA's floor when it scales, else its replicas. */}}
{{- define "sesame.minReplicas" -}}
{{- if and .svc.autoscaling .svc.autoscaling.enabled -}}{{ .svc.autoscaling.minReplicas }}{{- else -}}{{ .svc.replicas }}{{- end -}}
{{- end -}}

{{- define "sesame.grpcTlsSecret" -}}
{{- $secrets := .root.Values.grpcTls.secrets | default dict -}}
{{- get $secrets .name | default (printf "%s-%s-grpc-tls" (include "sesame.fullname" .root) .name) -}}
{{- end -}}

{{- /* Refusals that a schema cannot express: they depend on the environment. */}}
{{- define "sesame.validate" -}}
{{- if and (has .Values.environment (list "production" "production-eu")) (not .Values.grpcTls.enabled) -}}
{{- fail (printf "grpcTls.enabled: %s needs mutual TLS between the services; enable grpcTls (with grpcTls.certManager or a Secret per service in grpcTls.secrets)" .Values.environment) -}}
{{- end -}}
{{- end -}}
