import { Inject, Module, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { AssetNames } from './asset-names';
import { AssetSweep } from './asset-sweep';
import { AssetsController } from './assets.controller';
import { AssetsRepository } from './assets.repository';
import { AssetsService } from './assets.service';
import { ASSET_STORE, type AssetStore } from './store/asset-store';
import { DiskAssetStore } from './store/disk-asset-store';
import { takeUploadsAsStreams } from './upload/upload-body';

/**
 * Images uploaded to the service and served from it, their bytes in a store (a folder, or an
 * S3 bucket); and the rule that says which of them a write may name.
 */
@Module({
  controllers: [AssetsController],
  providers: [
    AssetsService,
    AssetsRepository,
    AssetNames,
    AssetSweep,
    {
      provide: ASSET_STORE,
      inject: [APP_CONFIG],
      // The AWS SDK is loaded only by the instances that store in S3: it weighs on memory.
      useFactory: async (config: AppConfig): Promise<AssetStore> => {
        if (config.assets.store !== 's3') return new DiskAssetStore(config.assets.dir);
        const { S3AssetStore } = await import('./store/s3-asset-store.js');
        return new S3AssetStore(config.assets.s3);
      },
    },
  ],
  exports: [AssetNames, AssetSweep],
})
export class AssetsModule implements OnModuleInit, OnModuleDestroy {
  constructor(
    private readonly http: HttpAdapterHost,
    @Inject(ASSET_STORE) private readonly store: AssetStore,
  ) {}

  onModuleInit(): void {
    takeUploadsAsStreams(this.http.httpAdapter.getInstance());
  }

  onModuleDestroy(): void {
    this.store.destroy?.();
  }
}
