import { Injectable } from '@nestjs/common';

/** Set once SIGTERM arrives: readiness then answers 503 so traffic moves elsewhere. */
@Injectable()
export class ShutdownState {
  private drainingSince: number | null = null;

  get draining(): boolean {
    return this.drainingSince !== null;
  }

  startDraining(): void {
    this.drainingSince ??= Date.now();
  }
}
