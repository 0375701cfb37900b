// Functions of the public API whose modules load when they are first called. The dashboard, the cluster
// telemetry and the OpenAPI builder are dozens of modules that most processes never run, and an ES module
// `import … from 'tessera-api'` reads every export when it is imported (issue 16: a bundle's start).
import type * as ClusterTelemetry from './telemetry/cluster-telemetry';
import type * as OpenApiDocument from './openapi/document';
import type * as StartDashboard from './dashboard/start-dashboard';

export function startDashboard(...args: Parameters<typeof StartDashboard.startDashboard>): ReturnType<typeof StartDashboard.startDashboard> {
  return (require('./dashboard/start-dashboard') as typeof StartDashboard).startDashboard(...args);
}

export function createTelemetryCollector(...args: Parameters<typeof ClusterTelemetry.createTelemetryCollector>): ReturnType<typeof ClusterTelemetry.createTelemetryCollector> {
  return (require('./telemetry/cluster-telemetry') as typeof ClusterTelemetry).createTelemetryCollector(...args);
}

export function startTelemetryReporter(...args: Parameters<typeof ClusterTelemetry.startTelemetryReporter>): ReturnType<typeof ClusterTelemetry.startTelemetryReporter> {
  return (require('./telemetry/cluster-telemetry') as typeof ClusterTelemetry).startTelemetryReporter(...args);
}

export function buildOpenApiDocument(...args: Parameters<typeof OpenApiDocument.buildOpenApiDocument>): ReturnType<typeof OpenApiDocument.buildOpenApiDocument> {
  return (require('./openapi/document') as typeof OpenApiDocument).buildOpenApiDocument(...args);
}
