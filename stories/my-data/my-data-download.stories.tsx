import type { Meta, StoryObj } from '@storybook/react-vite';
import { fromPromise } from 'xstate';
import type { DownloadResponse, SecondaryUseResponse } from '../../contract/my-data-download';
import {
  myDataDownloadFixtures as download,
  myDataSecondaryUseFixtures as secondary,
} from '../../machines/my-data/download.fixtures';
import { downloadMachine } from '../../machines/my-data/download.machine';
import { myDataMachine } from '../../machines/my-data/my-data.machine';
import type { MyDataLoaded } from '../../machines/my-data/my-data.types';
import { secondaryUseMachine } from '../../machines/my-data/secondary-use.machine';
import { MyDataActor } from '../../src/flows/my-data/my-data.context';
import { MyDataScreens } from '../../src/flows/my-data/MyDataScreens';
import { AtSnapshot, pending, type StoryParameters } from '../support';

/** No story calls the API: every request never settles. */
const storyMachine = myDataMachine.provide({
  actors: {
    loadMyData: fromPromise(() => pending<MyDataLoaded>()),
    download: downloadMachine.provide({
      actors: { requestDownload: fromPromise(() => pending<DownloadResponse>()) },
    }),
    secondaryUse: secondaryUseMachine.provide({
      actors: {
        loadSecondaryUse: fromPromise(() => pending<SecondaryUseResponse>()),
        storeSecondaryUse: fromPromise(() => pending<SecondaryUseResponse>()),
      },
    }),
  },
});

const meta = {
  title: 'Mis datos/Descargar y otros usos',
  component: MyDataScreens,
  decorators: [
    (Story, { parameters }) => (
      <AtSnapshot
        Provider={MyDataActor.Provider}
        logic={storyMachine}
        snapshot={(parameters as StoryParameters).snapshot}
      >
        <Story />
      </AtSnapshot>
    ),
  ],
} satisfies Meta<typeof MyDataScreens>;
export default meta;

const at = (snapshot: StoryParameters['snapshot']): StoryObj<typeof meta> => ({
  parameters: { snapshot, path: '/mis-datos' },
});

export const DownloadAsking = at(download.asking);
export const DownloadBuilding = at(download.building);
export const DownloadWaiting = at(download.waiting);
export const DownloadReady = at(download.ready);
export const DownloadExpired = at(download.expired);
export const DownloadFailed = at(download.failed);
export const DownloadSessionEnded = at(download.sessionEnded);
export const SecondaryUseLoading = at(secondary.loading);
export const SecondaryUseLoadFailed = at(secondary.loadFailed);
export const SecondaryUseShowing = at(secondary.showing);
export const SecondaryUseOptedOut = at(secondary.optedOut);
export const SecondaryUseSaving = at(secondary.saving);
export const SecondaryUseSaved = at(secondary.saved);
export const SecondaryUseSaveFailed = at(secondary.saveFailed);
