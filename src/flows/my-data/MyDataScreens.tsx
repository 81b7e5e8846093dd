import { selectMyDataScreen } from '../../../machines/my-data/my-data.selectors';
import { MyDataActor } from './my-data.context';
import { AccessesScreen } from './screens/AccessesScreen';
import { DownloadScreen } from './screens/DownloadScreen';
import { DeletionScreen } from './screens/DeletionScreen';
import { CorrectScreen } from './screens/CorrectScreen';
import { FailedScreen, LoadingScreen } from './screens/LoadingScreens';
import { MyDataScreen } from './screens/MyDataScreen';
import { MyFaceScreen } from './screens/MyFaceScreen';
import { SecondaryUseScreen } from './screens/SecondaryUseScreen';

export function MyDataScreens() {
  const screen = MyDataActor.useSelector(selectMyDataScreen);
  switch (screen) {
    case 'loading':
      return <LoadingScreen />;
    case 'data':
      return <MyDataScreen />;
    case 'accesses':
      return <AccessesScreen />;
    case 'download':
      return <DownloadScreen />;
    case 'secondaryUse':
      return <SecondaryUseScreen />;
    case 'deletion':
      return <DeletionScreen />;
    case 'face':
      return <MyFaceScreen />;
    case 'corrections':
      return <CorrectScreen />;
    case 'failed':
      return <FailedScreen />;
  }
}
