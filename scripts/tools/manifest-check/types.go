package main

import (
	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	appsv1 "k8s.io/api/apps/v1"
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	policyv1 "k8s.io/api/policy/v1"
)

// Every apiVersion/kind the chart may render. Anything else fails: a kind nobody checks is a kind nobody
// checked.
var types = map[string]func() interface{}{
	"v1/ConfigMap":                            func() interface{} { return &corev1.ConfigMap{} },
	"v1/Service":                              func() interface{} { return &corev1.Service{} },
	"v1/ServiceAccount":                       func() interface{} { return &corev1.ServiceAccount{} },
	"v1/PersistentVolumeClaim":                func() interface{} { return &corev1.PersistentVolumeClaim{} },
	"apps/v1/Deployment":                      func() interface{} { return &appsv1.Deployment{} },
	"autoscaling/v2/HorizontalPodAutoscaler":  func() interface{} { return &autoscalingv2.HorizontalPodAutoscaler{} },
	"networking.k8s.io/v1/NetworkPolicy":      func() interface{} { return &networkingv1.NetworkPolicy{} },
	"networking.k8s.io/v1/Ingress":            func() interface{} { return &networkingv1.Ingress{} },
	"policy/v1/PodDisruptionBudget":           func() interface{} { return &policyv1.PodDisruptionBudget{} },
	"monitoring.coreos.com/v1/ServiceMonitor": func() interface{} { return &monitoringv1.ServiceMonitor{} },
	"monitoring.coreos.com/v1/PrometheusRule": func() interface{} { return &monitoringv1.PrometheusRule{} },
	"cert-manager.io/v1/Certificate":          func() interface{} { return &cmv1.Certificate{} },
}
