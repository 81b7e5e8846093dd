import { selectMyDataScreen } from '../../../machines/my-data/my-data.selectors';
import { MyDataActor } from './my-data.context';
import { AccessesScreen } from './screens/AccessesScreen';
import { FailedScreen, LoadingScreen } from './screens/LoadingScreens';
import { MyDataScreen } from './screens/MyDataScreen';

export function MyDataScreens() {
  const screen = MyDataActor.useSelector(selectMyDataScreen);
  switch (screen) {
    case 'loading':
      return <LoadingScreen />;
    case 'data':
      return <MyDataScreen />;
    case 'accesses':
      return <AccessesScreen />;
    case 'failed':
      return <FailedScreen />;
  }
}
