export interface LoadBalancer {
  url: string;
  accessLog(): Array<{ upstream: string; status: number }>;
  stop(): Promise<void>;
}
export function nginxBinary(): string;
export function startNginx(replicaPorts: number[]): Promise<LoadBalancer>;
